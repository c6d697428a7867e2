import { z } from "zod";
import { ROLES } from "../ai/roles.ts";
import { parseModelSpec } from "../ai/spec.ts";

/** A `provider:model-id` string; the parser's own message (with the accepted forms) is the error. */
const modelSpec = z.string().superRefine((s, ctx) => {
  try {
    parseModelSpec(s, { variable: "settings.models" });
  } catch (e) {
    ctx.addIssue({ code: "custom", message: e instanceof Error ? e.message : String(e) });
  }
});

/**
 * Per-run settings a caller may pass with POST /api/runs. Names match the engine's ResearchConfig
 * (lib/research/config.ts), which supplies the defaults; unknown keys are refused so a typo is an
 * error, not a silently ignored setting.
 */
export const runSettingsSchema = z
  .strictObject({
    maxSupervisionRounds: z.number().int().min(0).max(10).optional(),
    supervisionEnabled: z.boolean().optional(),
    maxConcurrentResearchers: z.number().int().min(1).max(20).optional(),
    maxFollowUpsPerRound: z.number().int().min(0).max(10).optional(),
    maxDirectivesTotal: z.number().int().min(1).max(50).optional(),
    researcherToolBudget: z.number().int().min(1).max(50).optional(),
    searchProviders: z
      .array(z.enum(["library", "searxng", "tavily", "exa", "brave"]))
      .min(1)
      .optional(),
    planReview: z.boolean().optional(),
    clarification: z.boolean().optional(),
    /** Wall-clock limits; a run past one ends with a partial report and the reason. */
    runTimeoutMs: z
      .number()
      .int()
      .min(10_000)
      .max(24 * 3600_000)
      .optional(),
    phaseTimeoutMs: z
      .number()
      .int()
      .min(10_000)
      .max(24 * 3600_000)
      .optional(),
    /** Per-role model overrides for this run, e.g. {"synthesis": "anthropic:claude-sonnet-4-5"}. */
    models: z.partialRecord(z.enum(ROLES), modelSpec).optional(),
    /** Stop gracefully (partial report) past either limit. */
    budget: z
      .strictObject({
        maxTokens: z.number().int().positive().optional(),
        maxCostUsd: z.number().positive().optional(),
      })
      .optional(),
  })
  .default({});
export type RunSettings = z.infer<typeof runSettingsSchema>;

export const createRunSchema = z.strictObject({
  question: z.string().trim().min(3, "question must be at least 3 characters").max(4000),
  settings: runSettingsSchema,
});
