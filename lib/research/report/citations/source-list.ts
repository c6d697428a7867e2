/**
 * The stored sources a report cites: finding a stored source by a URL the model wrote, and the
 * `## Sources` section built from the database (never the model's own list).
 */

import { normalizeUrl } from "../../../search/url.ts";
import type { SourceRecord } from "../../store.ts";
import { en } from "../words/en.ts";
import type { ReportWords } from "../words/types.ts";

/**
 * The key a URL written by a model is matched to a stored source by. It is the app's one URL
 * identity (normalizeUrl: fragment, tracking parameters and trailing slash dropped, parameters
 * sorted) loosened further: the scheme, a leading `www.` and the root's trailing slash are ignored
 * too, because models cite `http://www.` spellings of pages stored as `https://`. Unparseable
 * text is compared lower-cased without its scheme and trailing slashes.
 */
export function urlKey(url: string): string {
  const normalized = normalizeUrl(url);
  try {
    const u = new URL(normalized);
    return `${u.host.replace(/^www\./, "")}${u.pathname.replace(/\/+$/, "")}${u.search}`;
  } catch {
    return normalized
      .toLowerCase()
      .replace(/^[a-z]+:\/\//, "")
      .replace(/\/+$/, "");
  }
}

/** Index of stored sources by URL key (both the URL as found and its normalised form). */
export function indexSourcesByUrl<S extends Pick<SourceRecord, "url" | "normalizedUrl">>(
  sources: readonly S[],
): Map<string, S> {
  const byKey = new Map<string, S>();
  for (const s of sources) {
    for (const u of [s.url, s.normalizedUrl]) {
      const key = urlKey(u);
      if (!byKey.has(key)) byKey.set(key, s);
    }
  }
  return byKey;
}

/** Only a source with a text snapshot can be cited: a reader (and the support check) can verify it. */
export function hasSnapshot(source: Pick<SourceRecord, "content">): boolean {
  return (source.content ?? "").trim().length > 0;
}

function escapeLinkText(text: string): string {
  return text
    .replace(/\s+/g, " ")
    .replace(/([[\]\\])/g, "\\$1")
    .trim();
}

export function escapeLinkUrl(url: string): string {
  return url.trim().replace(/ /g, "%20").replace(/\(/g, "%28").replace(/\)/g, "%29");
}

/**
 * `## Sources` with one `[N] [Title](URL)` paragraph per source, in the given order (N = index + 1);
 * a source whose full page text was read says so, the others rest on a search provider's text.
 */
export function buildSourcesSection(
  sources: readonly Pick<SourceRecord, "title" | "url" | "domain" | "readInFull">[],
  words: Pick<ReportWords, "sources" | "readInFull"> = en,
): string {
  const lines = sources.map((s, i) => {
    const title = escapeLinkText(s.title) || escapeLinkText(s.domain) || escapeLinkText(s.url);
    const note = s.readInFull ? ` *(${words.readInFull})*` : "";
    return `[${i + 1}] [${title}](${escapeLinkUrl(s.url)})${note}`;
  });
  // Blank lines between entries: each is its own paragraph when rendered.
  return `## ${words.sources}\n\n${lines.join("\n\n")}\n`;
}
