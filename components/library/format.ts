import { useTranslations } from "next-intl";
import { useTimeFormat } from "../home/time-format";

/** The document types the library stores, by the key of their name in `library.types`. */
export const typeKeys: Record<string, "text" | "markdown" | "html" | "pdf"> = {
  "text/plain": "text",
  "text/markdown": "markdown",
  "text/html": "html",
  "application/pdf": "pdf",
};

/** A document's type, size and date in the page's language (dates in UTC, so server and browser agree). */
export function useDocumentFormat() {
  const t = useTranslations("library");
  const { absoluteTime } = useTimeFormat();
  return {
    type: (mime: string) => (typeKeys[mime] ? t(`types.${typeKeys[mime]}`) : mime),
    chars: (count: number) => t("table.chars", { count }),
    date: (iso: string) => absoluteTime(new Date(iso)),
  };
}
