import { z } from "zod";
import { defaultFetch, requestJson } from "./http.ts";
import { truncate } from "./text.ts";
import type { FetchLike, SearchProvider, SearchResult } from "./types.ts";

export const EXA_BASE_URL = "https://api.exa.ai";

/** Page text requested per result: enough to cite from, bounded so 10 results stay small. */
const MAX_TEXT_CHARS = 20_000;

const responseSchema = z.object({
  results: z.array(
    z.looseObject({
      id: z.string().nullish(),
      url: z.string(),
      title: z.string().nullish(),
      publishedDate: z.string().nullish(),
      author: z.string().nullish(),
      score: z.number().nullish(),
      text: z.string().nullish(),
      highlights: z.array(z.string()).nullish(),
      summary: z.string().nullish(),
    }),
  ),
});

export interface ExaOptions {
  apiKey: string;
  baseUrl?: string;
  fetch?: FetchLike;
}

export function exaProvider(opts: ExaOptions): SearchProvider {
  const fetchImpl = opts.fetch ?? defaultFetch;
  const base = (opts.baseUrl ?? EXA_BASE_URL).replace(/\/+$/, "");
  return {
    name: "exa",
    async search(query, { maxResults, signal }) {
      const data = await requestJson(
        {
          provider: "exa",
          url: `${base}/search`,
          method: "POST",
          headers: { "x-api-key": opts.apiKey },
          body: {
            query,
            type: "auto",
            numResults: Math.min(maxResults, 100),
            contents: { text: { maxCharacters: MAX_TEXT_CHARS } },
          },
          signal,
          fetch: fetchImpl,
          credentialVariable: "EXA_API_KEY",
        },
        responseSchema,
      );
      return data.results.slice(0, maxResults).map((r): SearchResult => {
        // Exa has no snippet field: prefer what it extracted for the query, else the text's opening.
        const snippet = r.summary || r.highlights?.filter(Boolean).join(" … ") || truncate(r.text ?? "", 300);
        return {
          url: r.url,
          title: r.title || r.url,
          snippet,
          provider: "exa",
          ...(r.text ? { content: r.text } : {}),
          ...(r.score == null ? {} : { score: r.score }),
          ...(r.publishedDate ? { publishedAt: r.publishedDate } : {}),
        };
      });
    },
  };
}
