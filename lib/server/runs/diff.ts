/**
 * GET /api/runs/:id/diff?against=:otherId: what changed from the `against` version (before) to
 * this one (after), claim by claim (lib/research: diffReports). Both runs must be the caller's
 * (another account's id in either place is a 404) and have a report (409 otherwise).
 */
import { z } from "zod";
import { getReport } from "../../../db/queries/research.ts";
import { listCitedSources } from "../../../db/queries/run-versions.ts";
import { AppError } from "../../errors.ts";
import type { Runtime } from "../../jobs/runtime.ts";
import { diffReports, type ReportVersion, type VersionDiff, versionsDiffer } from "../../research/index.ts";
import { ownedRun } from "./owned.ts";

export interface RunDiff extends VersionDiff {
  /** The newer version (`:id`) and the older one it is compared with (`against`). */
  runId: string;
  against: string;
  /** A claim was added, removed or changed, or a cited source's text changed. */
  differ: boolean;
}

/** The query of GET /api/runs/:id/diff: the version to compare with (the older one, as a rule). */
export const diffQuerySchema = z.object({
  against: z.uuid().meta({ description: "The run (version) to compare with: the diff's before." }),
});

/** `?against=` as the route got it: missing or malformed is a caller mistake (400). */
export function parseDiffQuery(url: string): string {
  const parsed = diffQuerySchema.safeParse({
    against: new URL(url).searchParams.get("against") ?? undefined,
  });
  if (!parsed.success)
    throw new AppError("bad_request", "?against= must be the id of a run to compare with.");
  return parsed.data.against;
}

async function reportVersion(rt: Runtime, id: string): Promise<ReportVersion> {
  const db = rt.handle.db;
  const report = await getReport(db, id);
  if (!report) throw new AppError("conflict", `Run ${id} has no report yet: only reports can be compared.`);
  return { markdown: report.markdown, sources: await listCitedSources(db, id) };
}

export async function diffRuns(rt: Runtime, id: string, against: string, ownerId: string): Promise<RunDiff> {
  const db = rt.handle.db;
  // Both ownership checks before any report is read: a 404 must not depend on the other run's state.
  await ownedRun(db, id, ownerId);
  await ownedRun(db, against, ownerId);
  const before = await reportVersion(rt, against);
  const after = await reportVersion(rt, id);
  const diff = diffReports(before, after);
  return { runId: id, against, differ: versionsDiffer(diff), ...diff };
}
