/**
 * The engine's tunables, with DESIGN §6 defaults. A run's settings (POST /api/runs) override these;
 * the result is fixed for the run's life and stored with it, so a resumed run behaves the same.
 */
import { z } from "zod";

export const researchConfigSchema = z.object({
  /** Rounds after round 0 (coverage → follow-ups). */
  maxSupervisionRounds: z.number().int().min(0).max(10).default(3),
  supervisionEnabled: z.boolean().default(true),
  maxConcurrentResearchers: z.number().int().min(1).max(20).default(5),
  maxFollowUpsPerRound: z.number().int().min(0).max(10).default(3),
  maxDirectivesTotal: z.number().int().min(1).max(50).default(15),
  minSourcesPerQuery: z.number().int().min(1).max(20).default(2),
  /** Heuristic confidence at or above which coverage counts as sufficient. */
  coverageThreshold: z.number().min(0).max(1).default(0.75),
  /** Researcher tool-call budget (search + extract; think/complete are free). */
  researcherToolBudget: z.number().int().min(1).max(50).default(10),
  maxSearchResults: z.number().int().min(1).max(20).default(5),
  /** Fetched text longer than this is summarised (tool-less call) before the model sees it. */
  summarizeOverChars: z.number().int().min(500).default(6000),
  /** Character budget of a researcher's history given to compression. */
  compressionBudgetChars: z.number().int().min(2000).default(60_000),
  /** Token budget of the supervisor's accumulated memory (≈ 4 chars a token). */
  supervisorMemoryTokens: z.number().int().min(1000).default(24_000),
  /** Token budget of established knowledge items given to brief and supervisor. */
  knowledgeBudgetTokens: z.number().int().min(0).default(1500),
  clarification: z.boolean().default(false),
  planReview: z.boolean().default(false),
  searchProviders: z.array(z.string()).optional(),
  /** Wall-clock limits; past them the run ends with a partial report and the reason. */
  runTimeoutMs: z
    .number()
    .int()
    .min(1000)
    .default(60 * 60 * 1000),
  phaseTimeoutMs: z
    .number()
    .int()
    .min(1000)
    .default(30 * 60 * 1000),
});

export type ResearchConfig = z.infer<typeof researchConfigSchema>;

export function resolveResearchConfig(settings: Record<string, unknown> | undefined): ResearchConfig {
  return researchConfigSchema.parse(settings ?? {});
}

export const defaultResearchConfig: ResearchConfig = researchConfigSchema.parse({});
