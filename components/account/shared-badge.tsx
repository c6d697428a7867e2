import { useTranslations } from "next-intl";

/** Marks a knowledge item or library document an admin shared with every account. */
export function SharedBadge() {
  const t = useTranslations("account");
  return (
    <span
      data-testid="shared-badge"
      className="rounded bg-blue-50 px-2 py-0.5 text-xs font-medium text-blue-800 dark:bg-blue-950 dark:text-blue-200"
    >
      {t("sharedBadge")}
    </span>
  );
}
