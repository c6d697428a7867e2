/**
 * The run's readable URLs: the only strings extract_content may fetch. A URL is admitted when it
 * came from outside the models' imagination — this run's search results (web or library), the
 * person's question or clarification answer, the brief, or a link on a page already read (so a
 * primary source can be followed) — and it is kept exactly as it was seen there.
 *
 * A request matches only an admitted string itself: scheme and host compare case-insensitively
 * (they name the same server either way), everything else — path, query, fragment — byte for
 * byte, and what is fetched is the admitted string, never the model's spelling. Normalising here
 * would be a leak: a model could hang the brief on a known page as `?utm_content=…`, `#…` or
 * `?FBCLID=…`, and every such variant normalises to the page it was hung on. The normalised form
 * only finds the admitted spellings of the same page, so a refusal can name them.
 *
 * Everything it holds is derived from stored data (the run row, its sources' URLs and the
 * `page_links` rows, all raw strings), so a resumed run rebuilds the same set.
 */
import { isWebUrl, normalizeUrl } from "../../../search/url.ts";
import type { RunSnapshot, RunStore, SourceRecord } from "../../store.ts";

/** Links kept per page read, whatever the fetcher hands over. */
export const MAX_LINKS_PER_PAGE = 100;
/** Admitted spellings of one page a refusal names at most. */
export const MAX_ALTERNATIVES = 5;

export interface ReadableUrls {
  /** The admitted string `url` matches exactly (scheme and host in any case), or undefined: what may be fetched. */
  admitted(url: string): string | undefined;
  /** Admitted strings of the same page (same normalised URL) as `url`, at most `max`: what a refusal names. */
  samePage(url: string, max?: number): string[];
  add(urls: Iterable<string>): void;
  readonly size: number;
}

const SCHEME_AND_AUTHORITY = /^([a-z][a-z0-9+.-]*:\/\/)([^/?#]*)/i;

/**
 * The spelling two URLs must share to be the same admitted string: scheme and host lower-cased,
 * every other character as written (user info and port are kept as they are too).
 */
export function exactUrlKey(url: string): string {
  const m = SCHEME_AND_AUTHORITY.exec(url);
  if (!m) return url;
  const [head, scheme, authority] = m;
  const hostAt = authority.lastIndexOf("@") + 1;
  return (
    scheme.toLowerCase() +
    authority.slice(0, hostAt) +
    authority.slice(hostAt).toLowerCase() +
    url.slice(head.length)
  );
}

export function createReadableUrls(initial: Iterable<string> = []): ReadableUrls {
  const byKey = new Map<string, string>();
  const byPage = new Map<string, string[]>();
  const add = (list: Iterable<string>) => {
    for (const raw of list) {
      const url = raw.trim();
      const key = exactUrlKey(url);
      if (!url || byKey.has(key)) continue;
      byKey.set(key, url);
      const page = normalizeUrl(url);
      const spellings = byPage.get(page);
      if (spellings) spellings.push(url);
      else byPage.set(page, [url]);
    }
  };
  add(initial);
  return {
    admitted: (url) => byKey.get(exactUrlKey(url.trim())),
    samePage: (url, max = MAX_ALTERNATIVES) => (byPage.get(normalizeUrl(url)) ?? []).slice(0, max),
    add,
    get size() {
      return byKey.size;
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

/** The links a fetched page offers to follow: http(s) only, as the page gave them, each once, capped. */
export function followableLinks(links: readonly string[] | undefined): string[] {
  const kept = new Set<string>();
  for (const link of links ?? []) {
    if (kept.size >= MAX_LINKS_PER_PAGE) break;
    if (isWebUrl(link)) kept.add(link.trim());
  }
  return [...kept];
}

/** The set as the store has it: request and brief, every stored source's URL, every admitted link. */
export async function loadReadableUrls(store: RunStore): Promise<ReadableUrls> {
  const [run, sources, links] = await Promise.all([
    store.getRun(),
    store.listSources(),
    store.listPageLinks(),
  ]);
  return readableUrlsOf(run, sources, links);
}

/** loadReadableUrls from what the caller has already read: the run's texts, its sources, its admitted links. */
export function readableUrlsOf(
  run: Pick<RunSnapshot, "question" | "clarificationAnswer" | "brief">,
  sources: readonly Pick<SourceRecord, "url">[],
  links: readonly string[],
): ReadableUrls {
  const written = [run.question, run.clarificationAnswer ?? "", run.brief ?? ""].flatMap(urlsInText);
  return createReadableUrls([...written, ...sources.map((s) => s.url), ...links]);
}
