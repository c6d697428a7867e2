import type { LibrarySearchBackend, SearchProvider } from "./types.ts";

/** The URL a library document is cited by: where it came from, else a stable library:// id. */
export function libraryDocumentUrl(doc: { id: string; sourceUrl: string | null }): string {
  return doc.sourceUrl || `library://${doc.id}`;
}

/** Full-text search over the owner's own document library (the backend runs it in the database). */
export function libraryProvider(opts: { backend: LibrarySearchBackend; ownerId: string }): SearchProvider {
  return {
    name: "library",
    async search(query, { maxResults, signal }) {
      signal?.throwIfAborted();
      const hits = await opts.backend.search(opts.ownerId, query, maxResults);
      return hits.map((h) => ({
        url: libraryDocumentUrl(h),
        title: h.title,
        snippet: h.snippet,
        content: h.content,
        provider: "library",
        score: h.score,
      }));
    },
  };
}
