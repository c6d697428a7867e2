/** Share links of a run's report: created, listed and revoked by the run's owner, read by anyone with the token. */
import { getReport } from "../../db/queries/research.ts";
import {
  createShare,
  getShareForOwner,
  listSharesForRun,
  revokeShare,
  runForShareToken,
} from "../../db/queries/shares.ts";
import type { Report, Run, Share } from "../../db/schema.ts";
import { AppError } from "../errors.ts";
import type { Runtime } from "../jobs/runtime.ts";
import { ownedRun } from "./run-actions.ts";

export async function shareRun(rt: Runtime, runId: string, ownerId: string): Promise<Share> {
  await ownedRun(rt.handle.db, runId, ownerId);
  return createShare(rt.handle.db, runId);
}

export async function listRunShares(rt: Runtime, runId: string, ownerId: string): Promise<Share[]> {
  await ownedRun(rt.handle.db, runId, ownerId);
  return listSharesForRun(rt.handle.db, runId);
}

/** Revokes one of the owner's shares; a 404 for anyone else's. */
export async function revokeOwnShare(rt: Runtime, shareId: string, ownerId: string): Promise<void> {
  const found = await getShareForOwner(rt.handle.db, shareId, ownerId);
  if (!found) throw new AppError("not_found", "No such share.");
  await revokeShare(rt.handle.db, shareId);
}

/** The run and report behind a live token; nothing for an unknown or revoked token. */
export async function sharedReport(
  rt: Runtime,
  token: string,
): Promise<{ run: Run; report: Report | undefined } | undefined> {
  const run = await runForShareToken(rt.handle.db, token);
  if (!run) return undefined;
  return { run, report: await getReport(rt.handle.db, run.id) };
}
