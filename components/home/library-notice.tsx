import { useFormatter, useTranslations } from "next-intl";
import type { RunFormOptions } from "@/lib/server/runs/form";
import { useProviderLabel } from "./provider-label";

/**
 * Says plainly when the run will not search the person's document library: the server searches
 * only the providers it is configured with (SEARCH_PROVIDERS) unless the run names others.
 */
export function LibraryNotice({ options, selected }: { options: RunFormOptions; selected: string[] }) {
  const t = useTranslations("home.libraryNotice");
  const providerLabel = useProviderLabel();
  const format = useFormatter();
  if (selected.includes("library")) return null;
  const searched = options.providers.filter((p) => selected.includes(p.name)).map(providerLabel);
  const values = {
    option: providerLabel({ name: "library", label: "" }),
    providers: format.list(searched),
    strong: (chunks: React.ReactNode) => <strong>{chunks}</strong>,
  };
  return (
    <p
      data-testid="library-notice"
      className="rounded-lg border border-amber-300 bg-amber-50 p-3 text-sm dark:border-amber-800 dark:bg-amber-950"
    >
      {t.rich(searched.length ? "notSearchedOnly" : "notSearched", values)}{" "}
      <a href="/library" className="underline">
        {t("open")}
      </a>
    </p>
  );
}
