import type { fetch } from "undici";

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

/** Environment subset the search layer reads; passed in, never read at import time. */
export type SearchEnv = Readonly<Record<string, string | undefined>>;

/** The fetch the web providers use (undici's by default); injectable for tests and wrappers. */
export type FetchLike = typeof fetch;
