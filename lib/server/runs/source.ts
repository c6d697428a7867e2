/**
 * One source of a run as GET /api/runs/:id/sources/:sourceId shows it: its metadata, and each
 * citation that rests on it with the stored passage the verdict was reached on.
 */
import { getRunSource, listSourceCitations } from "../../../db/queries/research.ts";
import type { Citation, Source } from "../../../db/schema.ts";
import { AppError } from "../../errors.ts";
import type { Runtime } from "../runtime.ts";
import { ownedRun } from "./owned.ts";

/** A citation as the API shows it: the verdict, why, and (for the source view) the passage. */
export function citationView(c: Citation) {
  return {
    number: c.number,
    sourceId: c.sourceId,
    sentence: c.sentence,
    support: c.support,
    reason: c.reason,
    /** The reason as data (null on citations stored before it), for a page in another language. */
    because: c.because,
  };
}

/** Read in full: the page's own text was retrieved, not only a search provider's text. */
export function readInFull(s: Pick<Source, "content" | "fetchedAt" | "provider">): boolean {
  return s.content !== null && (s.fetchedAt !== null || s.provider === "fetch");
}

export async function getSourceView(rt: Runtime, runId: string, sourceId: string, ownerId: string) {
  const db = rt.handle.db;
  await ownedRun(db, runId, ownerId);
  const source = await getRunSource(db, runId, sourceId);
  if (!source) throw new AppError("not_found", "No such source in this run.");
  const rows = await listSourceCitations(db, runId, sourceId);
  return {
    id: source.id,
    runId,
    url: source.url,
    title: source.title,
    domain: source.domain,
    provider: source.provider,
    quality: source.quality,
    snippet: source.snippet,
    readInFull: readInFull(source),
    contentChars: source.content?.length ?? 0,
    fetchedAt: source.fetchedAt,
    citations: rows.map((c) => ({ ...citationView(c), passage: c.passage })),
  };
}

export type SourceView = Awaited<ReturnType<typeof getSourceView>>;
