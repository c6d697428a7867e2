/**
 * Research this deeper: a child run of one of the caller's finished runs (POST /api/runs/:id/deeper,
 * the "Research this deeper" forms, the MCP research_deeper tool). The child inherits the parent's
 * brief (no brief is written again), its read sources with their stored text (nothing is fetched
 * again) and its findings as prior coverage, so its supervisor aims at the gaps; it starts through
 * the one start path (rate limit, limits, slots).
 */
import { z } from "zod";
import { getReport } from "../../../db/queries/research.ts";
import type { Run } from "../../../db/schema.ts";
import type { Env } from "../../env.ts";
import { AppError } from "../../errors.ts";
import type { Runtime } from "../../jobs/runtime.ts";
import { runSettingsSchema } from "./input.ts";
import { ownedRun } from "./owned.ts";
import { type StartedRun, type Starter, startRun } from "./start.ts";

export const deeperRequestSchema = z.strictObject({
  /** A narrower question to research in the parent's context (e.g. one its sources could not answer). */
  question: z.string().trim().min(3, "question must be at least 3 characters").max(4000).optional(),
});
export type DeeperRequest = z.infer<typeof deeperRequestSchema>;

export async function researchDeeper(
  rt: Runtime,
  starter: Starter,
  parentId: string,
  input: DeeperRequest,
  env: Env = process.env,
): Promise<StartedRun> {
  const db = rt.handle.db;
  const parent = await ownedRun(db, parentId, starter.caller.userId);
  if (!(await getReport(db, parent.id))) {
    throw new AppError("conflict", "This run has no report yet: research deeper starts from a report.");
  }
  const settings = seededSettings(parent);
  const question = input.question ?? parent.question;
  const brief = childBrief(parent, input.question);
  return startRun(rt, starter, { question, settings }, env, {
    fromRunId: parent.id,
    brief,
    lineage: { parentId: parent.id },
  });
}

/**
 * A seeded run's settings: those of the run it starts from, without a clarifying question (its
 * brief already settled the request). Settings the server no longer accepts fall back to the
 * defaults rather than refusing the run (a scheduled refresh has no one to ask).
 */
export function seededSettings(from: Run) {
  const parsed = runSettingsSchema.safeParse(from.settings);
  return { ...(parsed.success ? parsed.data : {}), clarification: false };
}

/** The parent's brief; with a follow-up question, that question first and the brief as its context. */
function childBrief(parent: Run, question: string | undefined): string {
  const brief = parent.brief ?? parent.question;
  if (!question) return brief;
  return `${question}\n\nThis follow-up is researched in the context of earlier research on this brief:\n\n${brief}`;
}
