import type { Metadata } from "next";
import { type LibraryDocumentView, LibraryManager } from "@/components/library-manager";
import { parseSearchProviders } from "@/lib/search";
import { pageCaller } from "@/lib/server/auth/page";
import { listLibrary } from "@/lib/server/library/view";
import { serverRuntime } from "@/lib/server/runtime";

export const dynamic = "force-dynamic";

export const metadata: Metadata = { title: "Library · Deep Research" };

const PROVIDER_NAMES: Record<string, string> = {
  library: "this library",
  searxng: "the web through SearXNG",
  tavily: "the web through Tavily",
  exa: "the web through Exa",
  brave: "the web through Brave Search",
};

/**
 * What runs on this server search by default (SEARCH_PROVIDERS), said plainly: whether the
 * documents here are used at all, and what makes a run use them when they are not.
 */
function SearchNotice() {
  let providers: string[];
  try {
    providers = parseSearchProviders(process.env);
  } catch (e) {
    return (
      <p role="alert" data-testid="search-providers" className="text-sm text-red-700 dark:text-red-400">
        {(e as Error).message}
      </p>
    );
  }
  const names = providers.map((p) => PROVIDER_NAMES[p] ?? p).join(", ");
  if (providers.includes("library")) {
    return (
      <p data-testid="search-providers" className="max-w-2xl text-muted">
        Research runs on this server search: {names}. Researchers find and cite the documents stored here.
      </p>
    );
  }
  return (
    <div
      data-testid="search-providers"
      className="max-w-2xl space-y-1 rounded-lg border border-amber-300 bg-amber-50 p-3 text-sm text-amber-900 dark:border-amber-800 dark:bg-amber-950 dark:text-amber-100"
    >
      <p className="font-medium">Research runs on this server do not search this library.</p>
      <p>
        By default they search {names} only. A run uses these documents when the library is one of its
        sources: the run setting <code>searchProviders</code> with <code>"library"</code> (for example{" "}
        <code>["library", "searxng"]</code>), or on the server <code>SEARCH_PROVIDERS=library,searxng</code>.
      </p>
    </div>
  );
}

export default async function LibraryPage() {
  const caller = await pageCaller();
  const documents = await listLibrary(await serverRuntime(), caller.userId);
  const initial: LibraryDocumentView[] = JSON.parse(JSON.stringify(documents));
  return (
    <div className="space-y-6">
      <section className="space-y-2">
        <h1 className="text-3xl font-semibold tracking-tight">Document library</h1>
        <p className="max-w-2xl text-muted">
          Your own documents — reports, papers, notes — stored as text for research runs to search and cite.
        </p>
        <SearchNotice />
      </section>
      <LibraryManager initial={initial} isAdmin={caller.role === "admin"} />
    </div>
  );
}
