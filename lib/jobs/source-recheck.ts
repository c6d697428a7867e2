/**
 * A refreshed version's first step, before the engine starts: the sources the previous version's
 * report cited (marked `pending` when the version was seeded, db/queries/source-recheck.ts) are
 * fetched again through the engine's safe fetch — the stored URL only, never a variant — and their
 * extracted text compared with the stored text by a hash of the normalised text. A changed page's
 * new text replaces the old, so the new report and its citation checks rest on it; a page that
 * cannot be had is `gone` and keeps no text (not citable in this version). The text is data, as
 * any fetched page's: it is stored, never followed.
 */
import { createHash } from "node:crypto";
import type { Db } from "../../db/client.ts";
import {
  listPendingRechecks,
  type PendingRecheck,
  type RecheckResult,
  recheckCounts,
  saveRecheck,
} from "../../db/queries/source-recheck.ts";
import type { EngineDeps, EventSink } from "../research/index.ts";

/** Pages fetched at once: a report cites tens of pages, and the run's researchers wait for this step. */
const CONCURRENCY = 4;

/** sha-256 of the text with Unicode, line ends and runs of white space normalised: layout is not a change. */
export function normalisedTextHash(text: string): string {
  const normalised = text.normalize("NFC").replace(/\s+/g, " ").trim();
  return createHash("sha256").update(normalised, "utf8").digest("hex");
}

export interface RecheckOptions {
  db: Db;
  runId: string;
  fetchDocument: EngineDeps["fetchDocument"];
  events: EventSink;
  signal: AbortSignal;
}

/**
 * Re-checks the run's pending sources and, when any were, emits `sources.rechecked` with the run's
 * counts. Nothing pending (not a refresh, or a retried job past this step): nothing happens. An
 * abort stops the step quietly with the rest still pending: the engine, started next, ends the run
 * for the abort's reason (cancelled, timed out, shut down) as it would at any other step.
 */
export async function recheckCitedSources(o: RecheckOptions): Promise<void> {
  const pending = await listPendingRechecks(o.db, o.runId);
  if (!pending.length) return;
  let next = 0;
  const worker = async () => {
    while (next < pending.length && !o.signal.aborted) {
      const source = pending[next++];
      const result = await recheckOne(o, source);
      // A fetch cut short by the abort is not a gone page.
      if (o.signal.aborted) return;
      await saveRecheck(o.db, o.runId, source.id, result);
    }
  };
  await Promise.all(Array.from({ length: Math.min(CONCURRENCY, pending.length) }, worker));
  if (o.signal.aborted) return;
  await o.events.emit({ type: "sources.rechecked", ...(await recheckCounts(o.db, o.runId)) });
}

async function recheckOne(o: RecheckOptions, source: PendingRecheck): Promise<RecheckResult> {
  let text: string;
  try {
    text = (await o.fetchDocument(source.url, { signal: o.signal })).text;
  } catch {
    // A refusal, an HTTP error or an unreadable page alike: the page as cited cannot be had now.
    return { status: "gone", contentHash: null };
  }
  if (!text.trim()) return { status: "gone", contentHash: null };
  const contentHash = normalisedTextHash(text);
  const unchanged = source.content !== null && normalisedTextHash(source.content) === contentHash;
  return unchanged ? { status: "unchanged", contentHash } : { status: "changed", contentHash, content: text };
}
