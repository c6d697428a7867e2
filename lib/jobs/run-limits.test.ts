import { describe, expect, it } from "vitest";
import { defaultResearchConfig } from "../research/config.ts";
import { applyRunCeilings, runBudget, runCeilingsFromEnv, runCeilingViolations } from "./run-limits.ts";

describe("run ceilings", () => {
  const defaults = runCeilingsFromEnv({});

  it("has defaults for every ceiling and reads each from its variable", () => {
    expect(defaults).toEqual({
      config: {
        maxSupervisionRounds: 5,
        maxConcurrentResearchers: 10,
        maxFollowUpsPerRound: 5,
        maxDirectivesTotal: 30,
        researcherToolBudget: 20,
        runTimeoutMs: 7_200_000,
        phaseTimeoutMs: 7_200_000,
      },
      maxCostUsd: 20,
      defaultCostUsd: 5,
      maxTokens: 2_000_000,
    });
    const set = runCeilingsFromEnv({
      RUN_MAX_ROUNDS: "2",
      RUN_MAX_RESEARCHERS: "3",
      RUN_MAX_FOLLOW_UPS: "1",
      RUN_MAX_DIRECTIVES: "8",
      RUN_MAX_TOOL_CALLS: "4",
      RUN_MAX_DURATION_SECONDS: "600",
      RUN_MAX_COST_USD: "2",
      RUN_DEFAULT_COST_USD: "0.5",
      RUN_MAX_TOKENS: "50000",
    });
    expect(set).toEqual({
      config: {
        maxSupervisionRounds: 2,
        maxConcurrentResearchers: 3,
        maxFollowUpsPerRound: 1,
        maxDirectivesTotal: 8,
        researcherToolBudget: 4,
        runTimeoutMs: 600_000,
        phaseTimeoutMs: 600_000,
      },
      maxCostUsd: 2,
      defaultCostUsd: 0.5,
      maxTokens: 50_000,
    });
    // A default above the maximum is the maximum.
    expect(runCeilingsFromEnv({ RUN_MAX_COST_USD: "1", RUN_DEFAULT_COST_USD: "3" }).defaultCostUsd).toBe(1);
    expect(() => runCeilingsFromEnv({ RUN_MAX_ROUNDS: "two" })).toThrow(/RUN_MAX_ROUNDS must be an integer/);
    expect(() => runCeilingsFromEnv({ RUN_MAX_COST_USD: "-1" })).toThrow(/RUN_MAX_COST_USD/);
  });

  it("names every setting above its ceiling, with the variable that sets it", () => {
    const c = runCeilingsFromEnv({ RUN_MAX_ROUNDS: "2", RUN_MAX_DURATION_SECONDS: "600" });
    expect(
      runCeilingViolations(
        {
          maxSupervisionRounds: 3,
          maxConcurrentResearchers: 10,
          phaseTimeoutMs: 900_000,
          budget: { maxCostUsd: 25, maxTokens: 3_000_000 },
        },
        c,
      ),
    ).toEqual([
      "settings.maxSupervisionRounds: 3 is above this server's limit of 2 (RUN_MAX_ROUNDS)",
      "settings.phaseTimeoutMs: 900000 is above this server's limit of 600000 (RUN_MAX_DURATION_SECONDS)",
      "settings.budget.maxCostUsd: 25 is above this server's limit of 20 (RUN_MAX_COST_USD)",
      "settings.budget.maxTokens: 3000000 is above this server's limit of 2000000 (RUN_MAX_TOKENS)",
    ]);
    expect(
      runCeilingViolations({ maxSupervisionRounds: 2, runTimeoutMs: 600_000, budget: { maxCostUsd: 20 } }, c),
    ).toEqual([]);
  });

  it("lowers the engine's defaults to the ceilings, and leaves what fits alone", () => {
    const c = runCeilingsFromEnv({ RUN_MAX_ROUNDS: "1", RUN_MAX_DURATION_SECONDS: "1200" });
    const config = applyRunCeilings(defaultResearchConfig, c);
    expect(config.maxSupervisionRounds).toBe(1);
    expect(config.runTimeoutMs).toBe(1_200_000);
    expect(config.phaseTimeoutMs).toBe(1_200_000);
    expect(config.maxConcurrentResearchers).toBe(defaultResearchConfig.maxConcurrentResearchers);
    expect(config.coverageThreshold).toBe(defaultResearchConfig.coverageThreshold);
  });

  it("gives every run a cost budget and the unpriced-token ceiling", () => {
    expect(runBudget(undefined, defaults)).toEqual({ maxCostUsd: 5, maxUnpricedTokens: 2_000_000 });
    expect(runBudget({ maxCostUsd: 12, maxTokens: 40_000 }, defaults)).toEqual({
      maxCostUsd: 12,
      maxTokens: 40_000,
      maxUnpricedTokens: 2_000_000,
    });
    // A run created before a ceiling was lowered is held to the new one.
    const lowered = runCeilingsFromEnv({ RUN_MAX_COST_USD: "3", RUN_MAX_TOKENS: "10000" });
    expect(runBudget({ maxCostUsd: 12, maxTokens: 40_000 }, lowered)).toEqual({
      maxCostUsd: 3,
      maxTokens: 10_000,
      maxUnpricedTokens: 10_000,
    });
  });
});
