/**
 * The engine's tunables, with the documented defaults (docs/ARCHITECTURE.md). A run's settings
 * (POST /api/runs) override these; the result is fixed for the run's life and stored with it, so a
 * resumed run behaves the same.
 */
import { z } from "zod";
import { providerNames } from "../search/types.ts";
import { REPORT_LANGUAGES } from "./language.ts";

const HOUR_MS = 3600_000;

export const researchConfigSchema = z.object({
  /** Rounds after round 0 (coverage → follow-ups). */
  maxSupervisionRounds: z.number().int().min(0).max(10).default(3),
  supervisionEnabled: z.boolean().default(true),
  maxConcurrentResearchers: z.number().int().min(1).max(20).default(5),
  maxFollowUpsPerRound: z.number().int().min(0).max(10).default(3),
  maxDirectivesTotal: z.number().int().min(1).max(50).default(15),
  /**
   * A low-priority user directive runs only in a round whose other directives leave a researcher
   * free; after waiting this many rounds it is skipped (`directive.aged_out`).
   */
  lowPriorityUserMaxRounds: z.number().int().min(1).max(10).default(2),
  minSourcesPerQuery: z.number().int().min(1).max(20).default(2),
  /** Heuristic confidence at or above which coverage counts as sufficient. */
  coverageThreshold: z.number().min(0).max(1).default(0.75),
  /**
   * The heuristic gate (phases/supervision/coverage-gaps.ts): when every researched directive has
   * read at least `gateMinQualitySources` HIGH/MEDIUM-quality sources from `gateMinDomains`
   * domains, cited by its findings, the supervisor's model assessment is skipped.
   */
  heuristicGate: z.boolean().default(true),
  gateMinQualitySources: z.number().int().min(1).max(20).default(2),
  gateMinDomains: z.number().int().min(1).max(20).default(2),
  /** Follow-ups the heuristic names for the weakest directives when the model assessment fails. */
  heuristicFollowUps: z.number().int().min(0).max(10).default(2),
  /** Researcher tool-call budget (search + extract; think/complete are free). */
  researcherToolBudget: z.number().int().min(1).max(50).default(10),
  /** A researcher stops once this many of the pages it read were relevant and it has reflected. */
  relevantSourcesToStop: z.number().int().min(1).max(20).default(3),
  /**
   * A researcher stops when its last two searches' results overlap at least this much (Jaccard
   * similarity of their normalised URL sets), once it has reflected on the second.
   */
  similarSearchOverlap: z.number().min(0).max(1).default(0.6),
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
  /**
   * The language of the brief, notes, report and follow-up answers: `auto` (the question's) or one
   * whose words the code can put into a report (lib/research/language.ts).
   */
  reportLanguage: z.enum(["auto", ...REPORT_LANGUAGES]).default("auto"),
  /** Remove the citation of a claim its source does not support (and flag the sentence) instead of only marking it. */
  strictCitations: z.boolean().default(false),
  /** Most citations the model checks per report (in batches); the rest stay unchecked with the reason. */
  maxCitationChecks: z.number().int().min(0).max(2000).default(200),
  planReview: z.boolean().default(false),
  /** Overrides SEARCH_PROVIDERS for this run. */
  searchProviders: z.array(z.enum(providerNames)).min(1).optional(),
  /** Wall-clock limits; past them the run ends with a partial report and the reason. */
  runTimeoutMs: z
    .number()
    .int()
    .min(10_000)
    .max(24 * HOUR_MS)
    .default(HOUR_MS),
  phaseTimeoutMs: z
    .number()
    .int()
    .min(10_000)
    .max(24 * HOUR_MS)
    .default(HOUR_MS / 2),
});

export type ResearchConfig = z.infer<typeof researchConfigSchema>;

type WithoutDefault<S> = S extends z.ZodDefault<infer Inner> ? Inner : S;
type SettingsShape<T extends z.ZodRawShape> = { [K in keyof T]: z.ZodOptional<WithoutDefault<T[K]>> };

/** Each field optional and without its default: a setting is either given or left to the engine. */
function withoutDefaults<T extends z.ZodRawShape>(shape: T): SettingsShape<T> {
  return Object.fromEntries(
    Object.entries(shape).map(([key, field]) => [
      key,
      ((field instanceof z.ZodDefault ? field.unwrap() : field) as z.ZodType).optional(),
    ]),
  ) as unknown as SettingsShape<T>;
}

/**
 * The same tunables as a run's settings state them, with the same bounds: every field optional,
 * no defaults filled in (the engine applies them when the run starts, so stored settings hold only
 * what was chosen), unknown keys refused. The API derives what callers may set from this.
 */
export const researchSettingsSchema = z.strictObject(withoutDefaults(researchConfigSchema.shape));

export function resolveResearchConfig(settings: Record<string, unknown> | undefined): ResearchConfig {
  return researchConfigSchema.parse(settings ?? {});
}

export const defaultResearchConfig: ResearchConfig = researchConfigSchema.parse({});
