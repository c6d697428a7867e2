import { z } from "zod";
import { ROLES } from "../../ai/roles.ts";
import { parseModelChain } from "../../ai/spec.ts";
import { researchSettingsSchema } from "../../research/index.ts";

/**
 * A `provider:model-id` string, or several separated by commas (a chain, tried in order); the
 * parser's own message (with the accepted forms) is the error.
 */
const modelSpec = z
  .string()
  .max(2000)
  .superRefine((s, ctx) => {
    try {
      parseModelChain(s, { variable: "settings.models" });
    } catch (e) {
      ctx.addIssue({ code: "custom", message: e instanceof Error ? e.message : String(e) });
    }
  });

/**
 * Per-run settings a caller may pass with POST /api/runs: the engine's own settings schema
 * (lib/research/config.ts, which also supplies the defaults), so the API and the engine share one
 * set of bounds, narrowed to the tunables callers may set, plus the API-only model overrides and
 * budget. Unknown keys are refused so a typo is an error, not a silently ignored setting.
 */
export const runSettingsSchema = researchSettingsSchema
  .pick({
    maxSupervisionRounds: true,
    supervisionEnabled: true,
    maxConcurrentResearchers: true,
    maxFollowUpsPerRound: true,
    maxDirectivesTotal: true,
    researcherToolBudget: true,
    searchProviders: true,
    planReview: true,
    clarification: true,
    reportLanguage: true,
    strictCitations: true,
    maxCitationChecks: true,
    relevantSourcesToStop: true,
    similarSearchOverlap: true,
    heuristicGate: true,
    gateMinQualitySources: true,
    gateMinDomains: true,
    heuristicFollowUps: true,
    lowPriorityUserMaxRounds: true,
    runTimeoutMs: true,
    phaseTimeoutMs: true,
  })
  .extend({
    /**
     * Per-role model overrides for this run, e.g. {"synthesis": "anthropic:claude-sonnet-4-5"}; a comma
     * list is a chain ({"supervisor": "openai:gpt-5.1,anthropic:claude-sonnet-4-5"}).
     */
    models: z.partialRecord(z.enum(ROLES), modelSpec).optional(),
    /** Stop gracefully (partial report) past either limit. */
    budget: z
      .strictObject({
        maxTokens: z.number().int().positive().optional(),
        maxCostUsd: z.number().positive().optional(),
      })
      .optional(),
    /** Where this run's run.completed / run.failed is posted, signed (README "Webhooks"). */
    webhookUrl: z
      .url({ protocol: /^https?$/, error: "webhookUrl must be an http or https URL" })
      .max(2000)
      .optional(),
  })
  .default({});
export type RunSettings = z.infer<typeof runSettingsSchema>;

export const createRunSchema = z.strictObject({
  question: z.string().trim().min(3, "question must be at least 3 characters").max(4000),
  settings: runSettingsSchema,
});
export type CreateRunInput = z.infer<typeof createRunSchema>;
