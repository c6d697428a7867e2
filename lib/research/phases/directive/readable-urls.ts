/**
 * The run's readable URLs: the only pages extract_content may read. A URL qualifies when it came
 * from outside the models' imagination — this run's search results (web or library), the person's
 * question or clarification answer, the brief, or a link on a page already read (so a primary
 * source can be followed). A URL a model composed itself, say one carrying the brief in its query
 * string to a stranger's server, is in none of these and is refused before any request is made.
 *
 * Everything it holds is derived from stored data (the run row, its sources, the links of its
 * pages), so a resumed run rebuilds the same set. Compared by normalised URL (lib/search/url.ts).
 */
import { isWebUrl, normalizeUrl } from "../../../search/url.ts";
import type { RunSnapshot, RunStore, SourceRecord } from "../../store.ts";

/** Links kept per page read, whatever the fetcher hands over. */
export const MAX_LINKS_PER_PAGE = 100;

export interface ReadableUrls {
  /** True when this URL (normalised) came from a search result, the request, the brief or a page read. */
  allows(url: string): boolean;
  add(urls: Iterable<string>): void;
  readonly size: number;
}

export function createReadableUrls(initial: Iterable<string> = []): ReadableUrls {
  const urls = new Set<string>();
  const add = (list: Iterable<string>) => {
    for (const url of list) urls.add(normalizeUrl(url));
  };
  add(initial);
  return {
    allows: (url) => urls.has(normalizeUrl(url)),
    add,
    get size() {
      return urls.size;
    },
  };
}

/** Sentence punctuation and closing quotes that end a URL written in prose. */
const TRAILING_PUNCTUATION = /[.,;:!?'"’”\]}>]+$/;

/** Drops what prose puts after a URL; a ")" stays when it closes a "(" of the URL itself. */
function trimProse(url: string): string {
  let u = url.replace(TRAILING_PUNCTUATION, "");
  while (u.endsWith(")") && u.split("(").length < u.split(")").length) {
    u = u.slice(0, -1).replace(TRAILING_PUNCTUATION, "");
  }
  return u;
}

/** The http(s) URLs written in a piece of text (the question, the brief), as written. */
export function urlsInText(text: string): string[] {
  const found: string[] = [];
  for (const [match] of text.matchAll(/https?:\/\/[^\s<>"'`]+/gi)) {
    const url = trimProse(match);
    if (isWebUrl(url)) found.push(url);
  }
  return found;
}

/** The links a fetched page offers to follow: http(s) only, normalised, capped. */
export function followableLinks(links: readonly string[] | undefined): string[] {
  const kept = new Set<string>();
  for (const link of links ?? []) {
    if (kept.size >= MAX_LINKS_PER_PAGE) break;
    if (isWebUrl(link)) kept.add(normalizeUrl(link));
  }
  return [...kept];
}

/** The set as the store has it: request and brief, every stored source, every link of a page read. */
export async function loadReadableUrls(store: RunStore): Promise<ReadableUrls> {
  const [run, sources, links] = await Promise.all([
    store.getRun(),
    store.listSources(),
    store.listPageLinks(),
  ]);
  return readableUrlsOf(run, sources, links);
}

/** loadReadableUrls from what the caller has already read: the run's texts, its sources, its pages' links. */
export function readableUrlsOf(
  run: Pick<RunSnapshot, "question" | "clarificationAnswer" | "brief">,
  sources: readonly Pick<SourceRecord, "normalizedUrl">[],
  links: readonly string[],
): ReadableUrls {
  const written = [run.question, run.clarificationAnswer ?? "", run.brief ?? ""].flatMap(urlsInText);
  return createReadableUrls([...written, ...sources.map((s) => s.normalizedUrl), ...links]);
}
