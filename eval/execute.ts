/**
 * Runs a question set through the real engine as the worker does (lib/jobs executeRun: the
 * configured models, search providers and fetching, the usage meter) on an embedded in-memory
 * PGlite, one question after another, and measures each run from what it stored.
 */
import { performance } from "node:perf_hooks";
import { type DatabaseHandle, migrateDatabase, openDatabase } from "../db/client.ts";
import { createRun } from "../db/queries/runs.ts";
import { createRunBus } from "../lib/jobs/bus.ts";
import { executeRun } from "../lib/jobs/execute-run.ts";
import { measureRun, type QuestionMeasure } from "./measure.ts";
import type { QuestionSet } from "./questions.ts";

export interface EvalOptions {
  set: QuestionSet;
  env: Record<string, string | undefined>;
  /** Called after each question, e.g. to print progress. */
  onQuestion?: (m: QuestionMeasure) => void;
}

const OWNER = "eval";

export async function runQuestionSet(o: EvalOptions): Promise<QuestionMeasure[]> {
  const handle: DatabaseHandle = await openDatabase({ dataDir: null });
  await migrateDatabase(handle);
  const bus = await createRunBus(handle);
  const workerSignal = new AbortController().signal;
  const out: QuestionMeasure[] = [];
  try {
    for (const q of o.set.questions) {
      const settings = { ...o.set.settings, ...q.settings };
      const run = await createRun(handle.db, { ownerId: OWNER, question: q.question, settings });
      const t0 = performance.now();
      let thrown: string | undefined;
      try {
        await executeRun({ handle, bus, runId: run.id, workerSignal, env: o.env });
      } catch (error) {
        // The run row keeps whatever status it reached; the thrown message is what the result shows.
        thrown = (error as Error).message;
      }
      const m = await measureRun(handle.db, q, run.id, (performance.now() - t0) / 1000);
      if (thrown) m.error = thrown;
      out.push(m);
      o.onQuestion?.(m);
    }
  } finally {
    await bus.close();
    await handle.close();
  }
  return out;
}
