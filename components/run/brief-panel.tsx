import { useTranslations } from "next-intl";

/** The research brief the engine wrote from the question (and the clarification answer), on demand. */
export function BriefPanel({ brief, open = false }: { brief: string; open?: boolean }) {
  const t = useTranslations("run");
  return (
    <section aria-label={t("brief")} className="text-sm">
      <details open={open} className="rounded-lg border border-zinc-200 p-3 dark:border-zinc-800">
        <summary className="cursor-pointer font-medium">{t("brief")}</summary>
        <p className="mt-2 whitespace-pre-wrap text-zinc-700 dark:text-zinc-300">{brief}</p>
      </details>
    </section>
  );
}
