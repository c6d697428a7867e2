/**
 * The run's set of pages already read. Researchers run concurrently in one process, so `claim` is
 * synchronous: check and insert happen in one turn of the event loop, and of two researchers
 * asking for the same page exactly one wins. A resumed run seeds it with the pages whose text is
 * already stored, so no page is fetched twice across a worker restart either. Pages are the same
 * when their normalised URLs are; which string may be fetched is readable-urls.ts's question alone.
 */
import { normalizeUrl } from "../../../search/url.ts";

export interface SeenUrls {
  /** True when the caller is the first to claim this page in the run (and should fetch it). */
  claim(url: string): boolean;
  has(url: string): boolean;
  readonly size: number;
}

export function createSeenUrls(initial: Iterable<string> = []): SeenUrls {
  const seen = new Set<string>();
  for (const url of initial) seen.add(normalizeUrl(url));
  return {
    claim(url) {
      const key = normalizeUrl(url);
      if (seen.has(key)) return false;
      seen.add(key);
      return true;
    },
    has: (url) => seen.has(normalizeUrl(url)),
    get size() {
      return seen.size;
    },
  };
}
