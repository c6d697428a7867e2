import type { Metadata } from "next";
import { type LibraryDocumentView, LibraryManager } from "@/components/library-manager";
import { parseSearchProviders } from "@/lib/search";
import { pageCaller } from "@/lib/server/auth/page";
import { listLibrary } from "@/lib/server/library";
import { serverRuntime } from "@/lib/server/runtime";

export const dynamic = "force-dynamic";

export const metadata: Metadata = { title: "Library · Deep Research" };

/** Which search providers this server's runs use, or why SEARCH_PROVIDERS cannot be used. */
function configuredProviders(): string {
  try {
    return `This server searches: ${parseSearchProviders(process.env).join(", ")}.`;
  } catch (e) {
    return (e as Error).message;
  }
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
          The library is the default search source: with <code>SEARCH_PROVIDERS=library</code> (or unset),
          researchers search and cite only the documents stored here.
        </p>
        <p data-testid="search-providers" className="text-sm text-muted">
          {configuredProviders()}
        </p>
      </section>
      <LibraryManager initial={initial} isAdmin={caller.role === "admin"} />
    </div>
  );
}
