import { z } from "zod";
import { defaultFetch, requestJson } from "./http.ts";
import { htmlToPlain } from "./text.ts";
import type { FetchLike, SearchProvider, SearchResult } from "./types.ts";

export const BRAVE_BASE_URL = "https://api.search.brave.com";

const responseSchema = z.object({
  // Absent when Brave found nothing for the query.
  web: z
    .object({
      results: z.array(
        z.looseObject({
          url: z.string(),
          title: z.string().nullish(),
          description: z.string().nullish(),
          age: z.string().nullish(),
          page_age: z.string().nullish(),
        }),
      ),
    })
    .optional(),
});

export interface BraveOptions {
  apiKey: string;
  baseUrl?: string;
  fetch?: FetchLike;
}

export function braveProvider(opts: BraveOptions): SearchProvider {
  const fetchImpl = opts.fetch ?? defaultFetch;
  const base = (opts.baseUrl ?? BRAVE_BASE_URL).replace(/\/+$/, "");
  return {
    name: "brave",
    async search(query, { maxResults, signal }) {
      const url = new URL(`${base}/res/v1/web/search`);
      url.searchParams.set("q", query);
      url.searchParams.set("count", String(Math.min(maxResults, 20)));
      const data = await requestJson(
        {
          provider: "brave",
          url: url.toString(),
          method: "GET",
          headers: { "x-subscription-token": opts.apiKey },
          signal,
          fetch: fetchImpl,
          credentialVariable: "BRAVE_API_KEY",
        },
        responseSchema,
      );
      return (data.web?.results ?? []).slice(0, maxResults).map((r): SearchResult => {
        const publishedAt = r.page_age || r.age;
        return {
          url: r.url,
          // Brave marks matched terms with <strong> and escapes entities in titles and descriptions.
          title: htmlToPlain(r.title ?? "") || r.url,
          snippet: htmlToPlain(r.description ?? ""),
          provider: "brave",
          ...(publishedAt ? { publishedAt } : {}),
        };
      });
    },
  };
}
