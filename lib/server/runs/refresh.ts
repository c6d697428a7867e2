/**
 * Refresh: a new version of one of the caller's finished reports (POST /api/runs/:id/refresh, the
 * "Refresh" button, the MCP refresh_research tool and a scheduled refresh). The same question and
 * settings, `versionOf` the report's first run, seeded from the given version like research deeper
 * (its brief, read sources with their text, findings as prior coverage); the sources its report
 * cited are fetched again by the new version's job (lib/jobs/source-recheck.ts) before research
 * continues for what is new. It starts through the one start path (rate limit, limits, slots).
 */
import { getReport } from "../../../db/queries/research.ts";
import type { Run } from "../../../db/schema.ts";
import type { Env } from "../../env.ts";
import { AppError } from "../../errors.ts";
import type { Runtime } from "../../jobs/runtime.ts";
import { seededSettings } from "./deeper.ts";
import { ownedRun } from "./owned.ts";
import { type StartedRun, type Starter, startRun } from "./start.ts";

/** Statuses a run has a report to refresh in: it finished, or failed/was cancelled with a partial report. */
const REFRESHABLE: readonly Run["status"][] = ["completed", "failed", "cancelled"];

export async function refreshRun(
  rt: Runtime,
  starter: Starter,
  runId: string,
  env: Env = process.env,
): Promise<StartedRun> {
  const db = rt.handle.db;
  const run = await ownedRun(db, runId, starter.caller.userId);
  if (!REFRESHABLE.includes(run.status) || !(await getReport(db, run.id))) {
    throw new AppError("conflict", "This run has no finished report yet: a refresh starts from a report.");
  }
  return startRun(rt, starter, { question: run.question, settings: seededSettings(run) }, env, {
    fromRunId: run.id,
    brief: run.brief ?? undefined,
    lineage: { versionOf: run.versionOf ?? run.id },
    recheckCited: true,
  });
}
