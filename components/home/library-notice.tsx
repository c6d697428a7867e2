import type { RunFormOptions } from "@/lib/server/runs/form";

/**
 * Says plainly when the run will not search the person's document library: the server searches
 * only the providers it is configured with (SEARCH_PROVIDERS) unless the run names others.
 */
export function LibraryNotice({ options, selected }: { options: RunFormOptions; selected: string[] }) {
  if (selected.includes("library")) return null;
  const searched = options.providers.filter((p) => selected.includes(p.name)).map((p) => p.label);
  return (
    <p
      data-testid="library-notice"
      className="rounded-lg border border-amber-300 bg-amber-50 p-3 text-sm dark:border-amber-800 dark:bg-amber-950"
    >
      Your document library is <strong>not searched</strong> in this run
      {searched.length ? `; it searches only ${searched.join(", ")}` : ""}. To include it, tick “Your document
      library” under Options.{" "}
      <a href="/library" className="underline">
        Open your library
      </a>
    </p>
  );
}
