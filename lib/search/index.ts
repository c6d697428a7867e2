/**
 * The search layer: providers chosen by SEARCH_PROVIDERS, queried in parallel, merged and
 * de-duplicated by normalised URL.
 *
 * The web providers are called over their REST APIs with undici's fetch rather than the official
 * SDKs, deliberately: one uniform path for abort signals and timeouts, adapters testable against
 * local fake servers, and four fewer dependencies. Their endpoints are operator-configured (and
 * SearXNG is usually on a private network), so they do not go through lib/fetch's SSRF guard.
 */
import { AppError } from "../errors.ts";
import { metrics } from "../telemetry/metrics.ts";
import { withSpan } from "../telemetry/tracing.ts";
import { BRAVE_BASE_URL, braveProvider } from "./brave.ts";
import { SearchConfigError, SearchFailedError, SearchProviderError } from "./errors.ts";
import { EXA_BASE_URL, exaProvider } from "./exa.ts";
import { libraryProvider } from "./library.ts";
import { mergeResults } from "./merge.ts";
import { searxngProvider } from "./searxng.ts";
import { TAVILY_BASE_URL, tavilyProvider } from "./tavily.ts";
import {
  type FetchLike,
  type LibrarySearchBackend,
  type ProviderError,
  type ProviderName,
  providerNames,
  type SearchEnv,
  type SearchProvider,
  type SearchResponse,
} from "./types.ts";

export { SearchConfigError, SearchFailedError, SearchProviderError } from "./errors.ts";
export { libraryDocumentUrl } from "./library.ts";
export { mergeResults } from "./merge.ts";
export type * from "./types.ts";
export { providerNames } from "./types.ts";
export { domainOf, isWebUrl, normalizeUrl } from "./url.ts";

export const DEFAULT_PROVIDER_TIMEOUT_MS = 20_000;
export const DEFAULT_MAX_RESULTS = 10;
const MAX_RESULTS_CAP = 50;

export interface CreateSearchOptions {
  env: SearchEnv;
  /** Needed by the library provider: the database's full-text search over libraries. */
  library?: LibrarySearchBackend;
  /** Whose library is searched. */
  ownerId?: string;
  /** Overrides SEARCH_PROVIDERS, e.g. from a run's settings. */
  providers?: readonly string[];
  /** Deadline for each provider's answer. */
  timeoutMs?: number;
  fetch?: FetchLike;
}

export interface Search {
  readonly providers: readonly string[];
  search(query: string, opts?: { maxResults?: number; signal?: AbortSignal }): Promise<SearchResponse>;
}

/** SEARCH_PROVIDERS as a list of known names; unset or blank means the embedded library. */
export function parseSearchProviders(env: SearchEnv): ProviderName[] {
  const names = (env.SEARCH_PROVIDERS ?? "")
    .split(",")
    .map((s) => s.trim().toLowerCase())
    .filter(Boolean);
  return validateNames(names.length > 0 ? names : ["library"]);
}

function validateNames(names: readonly string[]): ProviderName[] {
  const out: ProviderName[] = [];
  for (const name of names) {
    if (!(providerNames as readonly string[]).includes(name)) {
      throw new SearchConfigError(
        `SEARCH_PROVIDERS names an unknown search provider "${name}"; known: ${providerNames.join(", ")}.`,
        "SEARCH_PROVIDERS",
      );
    }
    if (!out.includes(name as ProviderName)) out.push(name as ProviderName);
  }
  return out;
}

/** Where the provider list came from, for messages: the run's settings or the environment. */
function providersOrigin(opts: Pick<CreateSearchOptions, "providers">): string {
  return opts.providers ? "the run's settings.searchProviders" : "SEARCH_PROVIDERS";
}

function required(env: SearchEnv, variable: string, provider: string, origin: string): string {
  const value = env[variable]?.trim();
  if (!value) {
    throw new SearchConfigError(
      `The ${provider} search provider is enabled in ${origin} but ${variable} is not set.`,
      variable,
    );
  }
  return value;
}

function httpUrl(env: SearchEnv, variable: string, fallback?: string): string {
  const value = env[variable]?.trim() || fallback;
  if (value === undefined) throw new SearchConfigError(`${variable} is not set.`, variable);
  let u: URL;
  try {
    u = new URL(value);
  } catch {
    throw new SearchConfigError(`${variable} is not a valid URL: "${value}".`, variable);
  }
  if (u.protocol !== "http:" && u.protocol !== "https:") {
    throw new SearchConfigError(`${variable} must be an http(s) URL, got "${value}".`, variable);
  }
  return value;
}

function buildProvider(name: ProviderName, opts: CreateSearchOptions): SearchProvider {
  const { env, fetch } = opts;
  const origin = providersOrigin(opts);
  switch (name) {
    case "library":
      if (!opts.library || opts.ownerId === undefined) {
        throw new Error("createSearch: the library provider needs `library` and `ownerId`.");
      }
      return libraryProvider({ backend: opts.library, ownerId: opts.ownerId });
    case "searxng":
      required(env, "SEARXNG_URL", name, origin);
      return searxngProvider({ baseUrl: httpUrl(env, "SEARXNG_URL"), fetch });
    case "tavily":
      return tavilyProvider({
        apiKey: required(env, "TAVILY_API_KEY", name, origin),
        baseUrl: httpUrl(env, "TAVILY_BASE_URL", TAVILY_BASE_URL),
        fetch,
      });
    case "exa":
      return exaProvider({
        apiKey: required(env, "EXA_API_KEY", name, origin),
        baseUrl: httpUrl(env, "EXA_BASE_URL", EXA_BASE_URL),
        fetch,
      });
    case "brave":
      return braveProvider({
        apiKey: required(env, "BRAVE_API_KEY", name, origin),
        baseUrl: httpUrl(env, "BRAVE_BASE_URL", BRAVE_BASE_URL),
        fetch,
      });
  }
}

/**
 * Checks that every provider a run would use (`providers`, else SEARCH_PROVIDERS) has its key and
 * URL, without building the library provider or touching the network. Throws SearchConfigError
 * naming the variable to set: what POST /api/runs answers before creating a run.
 */
export function assertSearchConfigured(opts: Pick<CreateSearchOptions, "env" | "providers">): void {
  const names = opts.providers ? validateNames(opts.providers) : parseSearchProviders(opts.env);
  for (const name of names) if (name !== "library") buildProvider(name, opts);
}

/** Builds the configured providers; configuration mistakes throw SearchConfigError here, up front. */
export function createSearch(opts: CreateSearchOptions): Search {
  const names = opts.providers ? validateNames(opts.providers) : parseSearchProviders(opts.env);
  const providers = names.map((n) => buildProvider(n, opts));
  return createSearchFromProviders(providers, { timeoutMs: opts.timeoutMs });
}

/**
 * Queries every provider in parallel, each under its own deadline. Failures are reported per
 * provider; only when none answered does the search throw SearchFailedError. Aborting the signal
 * rejects at once with the signal's reason.
 */
export function createSearchFromProviders(
  providers: readonly SearchProvider[],
  opts: { timeoutMs?: number } = {},
): Search {
  const timeoutMs = opts.timeoutMs ?? DEFAULT_PROVIDER_TIMEOUT_MS;
  return {
    providers: providers.map((p) => p.name),
    async search(query, { maxResults = DEFAULT_MAX_RESULTS, signal } = {}) {
      const q = query.trim();
      if (!q) throw new AppError("bad_request", "The search query is empty.");
      const max = Math.max(1, Math.min(MAX_RESULTS_CAP, Math.floor(maxResults)));
      signal?.throwIfAborted();
      const settled = await Promise.allSettled(
        providers.map((p) => runProvider(p, q, max, timeoutMs, signal)),
      );
      signal?.throwIfAborted();
      const lists = settled.map((s) => (s.status === "fulfilled" ? s.value : []));
      const errors: ProviderError[] = settled.flatMap((s, i) =>
        s.status === "rejected" ? [{ provider: providers[i].name, message: errorMessage(s.reason) }] : [],
      );
      if (errors.length === providers.length && providers.length > 0) throw new SearchFailedError(errors);
      return { results: mergeResults(lists, max), errors };
    },
  };
}

async function runProvider(
  provider: SearchProvider,
  query: string,
  maxResults: number,
  timeoutMs: number,
  signal: AbortSignal | undefined,
) {
  const deadline = AbortSignal.timeout(timeoutMs);
  const combined = signal ? AbortSignal.any([signal, deadline]) : deadline;
  const count = (outcome: string) => metrics().searches.inc({ provider: provider.name, outcome });
  // The query is what a person asked about: it goes into the span only as its length.
  return withSpan(
    "search",
    { "search.provider": provider.name, "search.query_length": query.length },
    async () => {
      try {
        // Raced against the signal too: a provider that ignores it (a database query) must not hold us.
        const results = await raceAbort(provider.search(query, { maxResults, signal: combined }), combined);
        count("ok");
        return results;
      } catch (e) {
        if (signal?.aborted) {
          count("aborted");
          throw signal.reason;
        }
        count(deadline.aborted ? "timeout" : "error");
        if (deadline.aborted)
          throw new SearchProviderError(provider.name, `no answer within ${timeoutMs} ms`);
        throw e;
      }
    },
  );
}

function raceAbort<T>(promise: Promise<T>, signal: AbortSignal): Promise<T> {
  if (signal.aborted) return Promise.reject(signal.reason);
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(signal.reason);
    signal.addEventListener("abort", onAbort, { once: true });
    promise.then(resolve, reject).finally(() => signal.removeEventListener("abort", onAbort));
  });
}

function errorMessage(e: unknown): string {
  if (e instanceof SearchProviderError) return e.message;
  if (e instanceof Error) return e.message || e.name;
  return String(e);
}
