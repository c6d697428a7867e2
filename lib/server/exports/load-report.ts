/**
 * What a file export of a run holds, read from the database: the report's blocks, and per cited
 * number its source (title, URL) with every claim citing it, the verdict and the stored passage.
 */
import type { Db } from "../../../db/client.ts";
import { getReport, listCitations, listSourceSummaries } from "../../../db/queries/research.ts";
import type { Run } from "../../../db/schema.ts";
import { AppError } from "../../errors.ts";
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
  const start = blocks.findLastIndex(
    (n) => n.type === "heading" && n.depth === 2 && plainText(n).trim() === "Sources",
  );
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

/** The export of a run the caller may read (the caller checked that); 404 without a report. */
export async function loadExportDocument(db: Db, run: Run): Promise<ExportDocument> {
  const report = await getReport(db, run.id);
  if (!report) throw new AppError("not_found", `The run has no report yet (status: ${run.status}).`);
  const [citationRows, sourceRows] = await Promise.all([
    listCitations(db, run.id),
    listSourceSummaries(db, run.id),
  ]);
  const byId = new Map(sourceRows.map((s) => [s.id, s]));
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
  for (const c of citationRows) {
    const s = byId.get(c.sourceId);
    if (!s) continue;
    entry(c.number, { title: s.title || s.domain || s.url, url: s.url, domain: s.domain }).claims.push({
      sentence: c.sentence,
      support: c.support,
      passage: c.passage,
    });
  }
  for (const [n, s] of listed) {
    if (!entries.has(n)) entry(n, { ...s, domain: hostOf(s.url) });
  }
  return {
    question: run.question,
    date: run.finishedAt ?? run.createdAt,
    partial: report.partial,
    blocks: reportBlocks(report.markdown, run.question),
    sources: [...entries.values()].sort((a, b) => a.number - b.number),
    recordedElsewhere: run.importedFrom !== null,
  };
}

function hostOf(url: string): string {
  try {
    return new URL(url).hostname;
  } catch {
    return "";
  }
}
