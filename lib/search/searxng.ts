import { z } from "zod";
import { defaultFetch, requestJson } from "./http.ts";
import type { FetchLike, SearchProvider, SearchResult } from "./types.ts";

const responseSchema = z.object({
  results: z.array(
    z.looseObject({
      url: z.string(),
      title: z.string().nullish(),
      content: z.string().nullish(),
      score: z.number().nullish(),
      publishedDate: z.string().nullish(),
    }),
  ),
});

export interface SearxngOptions {
  /** Instance root, e.g. http://localhost:8888 (a path prefix is kept). */
  baseUrl: string;
  fetch?: FetchLike;
}

/** A self-hosted SearXNG through its JSON API (`search.formats` must include json). */
export function searxngProvider(opts: SearxngOptions): SearchProvider {
  const fetchImpl = opts.fetch ?? defaultFetch;
  return {
    name: "searxng",
    async search(query, { maxResults, signal }) {
      const url = new URL("search", opts.baseUrl.endsWith("/") ? opts.baseUrl : `${opts.baseUrl}/`);
      url.searchParams.set("q", query);
      url.searchParams.set("format", "json");
      const data = await requestJson(
        { provider: "searxng", url: url.toString(), method: "GET", headers: {}, signal, fetch: fetchImpl },
        responseSchema,
      ).catch((e: unknown) => {
        throw explainForbidden(e);
      });
      return data.results.slice(0, maxResults).map(
        (r): SearchResult => ({
          url: r.url,
          title: r.title || r.url,
          snippet: r.content ?? "",
          provider: "searxng",
          ...(r.score == null ? {} : { score: r.score }),
          ...(r.publishedDate ? { publishedAt: r.publishedDate } : {}),
        }),
      );
    },
  };
}

// SearXNG answers 403 to format=json unless the instance enables it; say so instead of "Forbidden".
function explainForbidden(e: unknown): unknown {
  if (e instanceof Error && "status" in e && e.status === 403) {
    e.message = `${e.message} — is the JSON format enabled (search.formats: [html, json] in settings.yml)?`;
  }
  return e;
}
