/**
 * The server's ceilings on run settings, so that no request can make a run bigger, longer or more
 * expensive than the operator allows. A request above a ceiling is refused (422, naming the
 * variable); a setting left out gets the engine's default, lowered to the ceiling when the ceiling
 * is lower. Cost: a run's `maxCostUsd` defaults to RUN_DEFAULT_COST_USD and may not exceed
 * RUN_MAX_COST_USD; models without a price cannot be held to a cost, so their tokens stop the run
 * at RUN_MAX_TOKENS. Ceilings are read again when a run (re)starts, so a lowered one also holds for
 * runs already queued.
 */
import type { Budget } from "../ai/usage.ts";
import { type Env, envNumber } from "../env.ts";
import type { ResearchConfig } from "../research/index.ts";

/** Config fields with a ceiling, and the variable that sets it. */
const configCeilings = {
  maxSupervisionRounds: { variable: "RUN_MAX_ROUNDS", fallback: 5 },
  maxConcurrentResearchers: { variable: "RUN_MAX_RESEARCHERS", fallback: 10 },
  maxFollowUpsPerRound: { variable: "RUN_MAX_FOLLOW_UPS", fallback: 5 },
  maxDirectivesTotal: { variable: "RUN_MAX_DIRECTIVES", fallback: 30 },
  researcherToolBudget: { variable: "RUN_MAX_TOOL_CALLS", fallback: 20 },
} as const satisfies Partial<Record<keyof ResearchConfig, { variable: string; fallback: number }>>;

type CeilingKey = keyof typeof configCeilings | "runTimeoutMs" | "phaseTimeoutMs";

export interface RunCeilings {
  config: Record<CeilingKey, number>;
  /** Upper bound of `budget.maxCostUsd`. */
  maxCostUsd: number;
  /** `budget.maxCostUsd` when the run names none. */
  defaultCostUsd: number;
  /** Upper bound of `budget.maxTokens`, and where tokens of unpriced models stop a run. */
  maxTokens: number;
}

const durationVariable = "RUN_MAX_DURATION_SECONDS";

export function runCeilingsFromEnv(env: Env = process.env): RunCeilings {
  const config = Object.fromEntries(
    Object.entries(configCeilings).map(([key, c]) => [
      key,
      envNumber(env, c.variable, c.fallback, { min: 1, integer: true }),
    ]),
  ) as Record<CeilingKey, number>;
  const durationMs = envNumber(env, durationVariable, 2 * 3600, { min: 10, integer: true }) * 1000;
  config.runTimeoutMs = durationMs;
  config.phaseTimeoutMs = durationMs;
  const maxCostUsd = envNumber(env, "RUN_MAX_COST_USD", 20, { min: 0.01 });
  return {
    config,
    maxCostUsd,
    defaultCostUsd: Math.min(maxCostUsd, envNumber(env, "RUN_DEFAULT_COST_USD", 5, { min: 0.01 })),
    maxTokens: envNumber(env, "RUN_MAX_TOKENS", 2_000_000, { min: 1000, integer: true }),
  };
}

function variableOf(key: CeilingKey): string {
  return key === "runTimeoutMs" || key === "phaseTimeoutMs"
    ? durationVariable
    : configCeilings[key as keyof typeof configCeilings].variable;
}

/** What a run's settings ask for that the server does not allow: one readable line per setting. */
export function runCeilingViolations(
  settings: { budget?: { maxTokens?: number; maxCostUsd?: number } } & Partial<Record<CeilingKey, unknown>>,
  c: RunCeilings,
): string[] {
  const issues: string[] = [];
  for (const [key, max] of Object.entries(c.config) as [CeilingKey, number][]) {
    const value = settings[key];
    if (typeof value === "number" && value > max) {
      issues.push(`settings.${key}: ${value} is above this server's limit of ${max} (${variableOf(key)})`);
    }
  }
  const { maxCostUsd, maxTokens } = settings.budget ?? {};
  if (maxCostUsd !== undefined && maxCostUsd > c.maxCostUsd) {
    issues.push(
      `settings.budget.maxCostUsd: ${maxCostUsd} is above this server's limit of ${c.maxCostUsd} (RUN_MAX_COST_USD)`,
    );
  }
  if (maxTokens !== undefined && maxTokens > c.maxTokens) {
    issues.push(
      `settings.budget.maxTokens: ${maxTokens} is above this server's limit of ${c.maxTokens} (RUN_MAX_TOKENS)`,
    );
  }
  return issues;
}

/** The run's config with every capped field at most its ceiling (defaults included). */
export function applyRunCeilings(config: ResearchConfig, c: RunCeilings): ResearchConfig {
  const capped = { ...config };
  for (const [key, max] of Object.entries(c.config) as [CeilingKey, number][]) {
    capped[key] = Math.min(capped[key], max);
  }
  return capped;
}

/** The budget a run's usage meter enforces: the run's own, within the server's ceilings. */
export function runBudget(
  requested: { maxTokens?: number; maxCostUsd?: number } | undefined,
  c: RunCeilings,
): Budget {
  return {
    ...(requested?.maxTokens === undefined ? {} : { maxTokens: Math.min(requested.maxTokens, c.maxTokens) }),
    maxCostUsd: Math.min(requested?.maxCostUsd ?? c.defaultCostUsd, c.maxCostUsd),
    maxUnpricedTokens: c.maxTokens,
  };
}
