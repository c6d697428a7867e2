/**
 * What a file export of a run holds, read from the database: the report's blocks, and per cited
 * number its source (title, URL) with every claim citing it, the verdict and the stored passage.
 *
 * @internal to lib/server/exports/: a helper of its actions, not an action; adapters do not import it.
 */

import type { RootContent } from "mdast";
import type { Db } from "../../../db/client.ts";
import { getReport, listCitations, listSourceSummaries } from "../../../db/queries/research.ts";
import type { Run } from "../../../db/schema.ts";
import { AppError } from "../../errors.ts";
import { runReportLanguage } from "../../research/index.ts";
import { entryText, sourcesHeadingIndex } from "../../research/ui.ts";
import { isLibrarySource } from "../shares/view.ts";
import { exportWordsFor } from "./labels.ts";
import {
  type ExportDocument,
  type ExportSource,
  parseReport,
  plainText,
  reportBlocks,
} from "./report-model.ts";

/** `[N] [Title](URL)` entries of the report's own Sources section, by number. */
function listedSources(markdown: string): Map<number, { title: string; url: string }> {
  const blocks = parseReport(markdown).children;
  const start = sourcesHeadingIndex(blocks, (n) => entryText(plainText(n)));
  const out = new Map<number, { title: string; url: string }>();
  if (start < 0) return out;
  for (const node of blocks.slice(start + 1)) {
    if (node.type !== "paragraph") continue;
    const [first, link] = node.children;
    const n = first?.type === "text" ? first.value.match(/^\[(\d{1,4})\]/)?.[1] : undefined;
    if (n && link?.type === "link") out.set(Number(n), { title: plainText(link), url: link.url });
  }
  return out;
}

/**
 * Links in the report to the owner's private documents become the words for "private document" in
 * the report's language (`words`): a share link's reader gets no title, URL, passage or link.
 */
function redactLinks(nodes: RootContent[], privateUrls: Set<string>, words: string): RootContent[] {
  return nodes.map((node) => {
    if (node.type === "link" && privateUrls.has(node.url))
      return { type: "text", value: words } as RootContent;
    if ("children" in node) {
      return {
        ...node,
        children: redactLinks(node.children as RootContent[], privateUrls, words),
      } as RootContent;
    }
    return node;
  });
}

/**
 * The export of a run the caller may read (the caller checked that); 404 without a report.
 * `forShare`: for a share link's reader, with the owner's private library documents redacted as
 * the share page redacts them.
 */
export async function loadExportDocument(
  db: Db,
  run: Run,
  opts: { forShare?: boolean } = {},
): Promise<ExportDocument> {
  const report = await getReport(db, run.id);
  if (!report) throw new AppError("not_found", `The run has no report yet (status: ${run.status}).`);
  const [citationRows, sourceRows] = await Promise.all([
    listCitations(db, run.id),
    listSourceSummaries(db, run.id),
  ]);
  const byId = new Map(sourceRows.map((s) => [s.id, s]));
  const words = exportWordsFor(runReportLanguage(run.settings, run.question));
  const privateTitle = words.privateDocument;
  const listed = listedSources(report.markdown);
  const entries = new Map<number, ExportSource>();
  const entry = (n: number, fallback: { title: string; url: string; domain: string }) => {
    let e = entries.get(n);
    if (!e) {
      e = { number: n, ...fallback, claims: [] };
      entries.set(n, e);
    }
    return e;
  };
  const hidden = (s: { provider: string; url: string }) => opts.forShare === true && isLibrarySource(s);
  for (const c of citationRows) {
    const s = byId.get(c.sourceId);
    if (!s) continue;
    const source = hidden(s)
      ? { title: privateTitle, url: "", domain: "" }
      : { title: s.title || s.domain || s.url, url: s.url, domain: s.domain };
    entry(c.number, source).claims.push({
      sentence: c.sentence,
      support: c.support,
      passage: hidden(s) ? null : c.passage,
    });
  }
  for (const [n, s] of listed) {
    if (entries.has(n)) continue;
    const privateEntry = hidden({ provider: "", url: s.url });
    entry(n, privateEntry ? { title: privateTitle, url: "", domain: "" } : { ...s, domain: hostOf(s.url) });
  }
  const privateUrls = new Set(sourceRows.filter((s) => hidden(s)).map((s) => s.url));
  const blocks = reportBlocks(report.markdown, run.question);
  return {
    question: run.question,
    date: run.finishedAt ?? run.createdAt,
    partial: report.partial,
    blocks: privateUrls.size ? redactLinks(blocks, privateUrls, privateTitle) : blocks,
    sources: [...entries.values()].sort((a, b) => a.number - b.number),
    recordedElsewhere: run.importedFrom !== null,
    words,
  };
}

function hostOf(url: string): string {
  try {
    return new URL(url).hostname;
  } catch {
    return "";
  }
}
