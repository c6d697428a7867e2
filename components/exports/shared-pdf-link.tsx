import { useTranslations } from "next-intl";

/** The share page's download of the report as a PDF, shown when the link's owner allowed it. */
export function SharedPdfLink({ href }: { href: string }) {
  const t = useTranslations("exports");
  return (
    <p data-print="hide">
      <a
        href={href}
        download
        className="inline-block rounded border border-zinc-300 px-3 py-1 text-sm no-underline hover:bg-zinc-100 dark:border-zinc-700 dark:hover:bg-zinc-800"
      >
        {t("sharedPdf")}
      </a>
    </p>
  );
}
