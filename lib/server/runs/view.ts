/** Reading runs for the API and the pages: always through the owner check. */
import { getReport } from "../../../db/queries/research.ts";
import { listRunsWithSourceCounts } from "../../../db/queries/run-summaries.ts";
import { getRunForOwner } from "../../../db/queries/runs.ts";
import type { Report } from "../../../db/schema.ts";
import { AppError } from "../../errors.ts";
import type { Runtime } from "../../jobs/runtime.ts";
import { takeStreamSlot } from "../stream-slots.ts";
import { runEventStream } from "./event-stream.ts";
import { ownedRun } from "./owned.ts";
import { type RunSummary, type RunView, runSummary, runView } from "./view-model.ts";

/** The owner's runs, newest first; `query` keeps those whose question contains it (any case). */
export async function listRunSummaries(
  rt: Runtime,
  ownerId: string,
  limit?: number,
  opts: { query?: string } = {},
): Promise<RunSummary[]> {
  const rows = await listRunsWithSourceCounts(rt.handle.db, ownerId, { limit, query: opts.query });
  return rows.map((run) => runSummary(run));
}

/** The run as the API shows it; nothing for a missing run or another owner's. */
export async function findRunView(rt: Runtime, id: string, ownerId: string): Promise<RunView | undefined> {
  const run = await getRunForOwner(rt.handle.db, id, ownerId);
  return run && runView(rt.handle.db, run);
}

/** The run's question (a download's file name); a 404 when the run is not the owner's. */
export async function getRunQuestion(rt: Runtime, id: string, ownerId: string): Promise<string> {
  return (await ownedRun(rt.handle.db, id, ownerId)).question;
}

/** The run's report; a 404 when the run is not the owner's or has no report yet. */
export async function getRunReport(rt: Runtime, id: string, ownerId: string): Promise<Report> {
  const run = await ownedRun(rt.handle.db, id, ownerId);
  const report = await getReport(rt.handle.db, id);
  if (!report) throw new AppError("not_found", `The run has no report yet (status: ${run.status}).`);
  return report;
}

/**
 * The owner's run as a Server-Sent Events stream after the client's cursor (Last-Event-ID or
 * ?after=, a non-negative event seq); see event-stream.ts. It holds one of the owner's stream slots
 * while it is open (stream-slots.ts: 429 past EVENT_STREAMS_MAX_PER_USER).
 */
export async function openRunEventStream(
  rt: Runtime,
  id: string,
  ownerId: string,
  opts: { cursor: string; signal: AbortSignal; deltas: boolean },
): Promise<ReadableStream<Uint8Array>> {
  await ownedRun(rt.handle.db, id, ownerId);
  const afterSeq = Number.parseInt(opts.cursor, 10);
  if (!/^\d+$/.test(opts.cursor.trim()) || !Number.isSafeInteger(afterSeq)) {
    throw new AppError("bad_request", "Last-Event-ID / after must be a non-negative integer event seq.");
  }
  const release = takeStreamSlot(ownerId);
  try {
    return runEventStream({
      db: rt.handle.db,
      bus: rt.bus,
      runId: id,
      afterSeq,
      signal: opts.signal,
      deltas: opts.deltas,
      onClose: release,
    });
  } catch (e) {
    release();
    throw e;
  }
}
