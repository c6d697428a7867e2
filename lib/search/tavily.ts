import { z } from "zod";
import { defaultFetch, requestJson } from "./http.ts";
import type { FetchLike, SearchProvider, SearchResult } from "./types.ts";

export const TAVILY_BASE_URL = "https://api.tavily.com";

const responseSchema = z.object({
  results: z.array(
    z.looseObject({
      url: z.string(),
      title: z.string().nullish(),
      content: z.string().nullish(),
      score: z.number().nullish(),
      raw_content: z.string().nullish(),
      published_date: z.string().nullish(),
    }),
  ),
});

export interface TavilyOptions {
  apiKey: string;
  baseUrl?: string;
  fetch?: FetchLike;
}

export function tavilyProvider(opts: TavilyOptions): SearchProvider {
  const fetchImpl = opts.fetch ?? defaultFetch;
  const base = (opts.baseUrl ?? TAVILY_BASE_URL).replace(/\/+$/, "");
  return {
    name: "tavily",
    async search(query, { maxResults, signal }) {
      const data = await requestJson(
        {
          provider: "tavily",
          url: `${base}/search`,
          method: "POST",
          headers: { authorization: `Bearer ${opts.apiKey}` },
          // Basic depth costs one credit; the researcher fetches the pages it actually reads.
          body: { query, max_results: Math.min(maxResults, 20), search_depth: "basic", topic: "general" },
          signal,
          fetch: fetchImpl,
          credentialVariable: "TAVILY_API_KEY",
        },
        responseSchema,
      );
      return data.results.slice(0, maxResults).map(
        (r): SearchResult => ({
          url: r.url,
          title: r.title || r.url,
          snippet: r.content ?? "",
          provider: "tavily",
          ...(r.raw_content ? { content: r.raw_content } : {}),
          ...(r.score == null ? {} : { score: r.score }),
          ...(r.published_date ? { publishedAt: r.published_date } : {}),
        }),
      );
    },
  };
}
