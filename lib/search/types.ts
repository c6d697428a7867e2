import type { fetch } from "undici";

/** Every search provider the app knows; SEARCH_PROVIDERS and a run's settings name some of these. */
export const providerNames = ["library", "searxng", "tavily", "exa", "brave"] as const;
export type ProviderName = (typeof providerNames)[number];

/** One hit from any provider, in the shape the researcher and the sources table consume. */
export interface SearchResult {
  url: string;
  title: string;
  /** Short plain-text excerpt (the library's marks matched terms with **…**). */
  snippet: string;
  /** Full text when the provider returned it, so the researcher can skip a fetch. */
  content?: string;
  /** Name of the provider that found it (the first one, after merging). */
  provider: string;
  /** Provider-specific relevance; only comparable within one provider. */
  score?: number;
  /** ISO date or the provider's own date text, when known. */
  publishedAt?: string;
}

export interface ProviderSearchOptions {
  maxResults: number;
  signal?: AbortSignal;
}

export interface SearchProvider {
  readonly name: string;
  search(query: string, opts: ProviderSearchOptions): Promise<SearchResult[]>;
}

export interface ProviderError {
  provider: string;
  message: string;
}

export interface SearchResponse {
  results: SearchResult[];
  /** Providers that failed while at least one other answered. */
  errors: ProviderError[];
}

/** A document of the owner's library matching a query. */
export interface LibraryHit {
  id: string;
  title: string;
  sourceUrl: string | null;
  /** Excerpt with the matched terms marked **like this**. */
  snippet: string;
  content: string;
  score: number;
}

/**
 * Full-text search over one owner's document library: what the library provider needs from
 * storage. lib/search defines it; the database layer implements it (db/queries/library.ts) and
 * the wiring passes it in, so the search layer never imports the database.
 */
export interface LibrarySearchBackend {
  search(ownerId: string, query: string, limit: number): Promise<LibraryHit[]>;
}

/** Environment subset the search layer reads; passed in, never read at import time. */
export type SearchEnv = Readonly<Record<string, string | undefined>>;

/** The fetch the web providers use (undici's by default); injectable for tests and wrappers. */
export type FetchLike = typeof fetch;
