// "Edit question" starts the form from the earlier run: its preset and options, not the defaults.
import { describe, expect, it } from "vitest";
import type { RunFormOptions } from "@/lib/server/runs/form";
import { defaultStart, startFromSettings } from "./form-start.ts";

const options = {
  presets: {
    quick: {
      maxSupervisionRounds: 1,
      maxConcurrentResearchers: 3,
      researcherToolBudget: 6,
      relevantSourcesToStop: 2,
      maxCostUsd: 1,
    },
    standard: {
      maxSupervisionRounds: 3,
      maxConcurrentResearchers: 5,
      researcherToolBudget: 10,
      relevantSourcesToStop: 3,
      maxCostUsd: 5,
    },
    deep: {
      maxSupervisionRounds: 5,
      maxConcurrentResearchers: 8,
      researcherToolBudget: 20,
      relevantSourcesToStop: 6,
      maxCostUsd: 15,
    },
  },
  defaultPreset: "standard",
  providers: [
    { name: "library", label: "Library" },
    { name: "searxng", label: "Web" },
  ],
  defaultProviders: ["library"],
  models: {
    roles: [
      { role: "supervisor", model: "openai:a" },
      { role: "researcher", model: "openai:a" },
    ],
    allowed: ["openai:a", "openai:b"],
  },
} as unknown as RunFormOptions;

describe("the form's start for Edit question", () => {
  it("keeps a Deep run's preset and numbers, budget, places searched, checks and models", () => {
    const start = startFromSettings(
      {
        maxSupervisionRounds: 5,
        maxConcurrentResearchers: 8,
        researcherToolBudget: 20,
        relevantSourcesToStop: 6,
        budget: { maxCostUsd: 15, maxTokens: 200000 },
        searchProviders: ["searxng", "tavily"],
        planReview: true,
        clarification: false,
        models: { supervisor: "openai:b", researcher: "openai:a,openai:b" },
      },
      options,
    );
    expect(start.preset).toBe("deep");
    expect(start.values.numbers).toEqual({
      maxSupervisionRounds: "5",
      maxConcurrentResearchers: "8",
      researcherToolBudget: "20",
      relevantSourcesToStop: "6",
      maxCostUsd: "15",
    });
    expect(start.values.maxTokens).toBe("200000");
    // Only what this server still offers: tavily is not configured here, a chain is not a choice.
    expect(start.values.providers).toEqual(["searxng"]);
    expect(start.values.models).toEqual({ supervisor: "openai:b", researcher: "openai:a" });
    expect(start.values.planReview).toBe(true);
  });

  it("keeps changed numbers under the closest preset", () => {
    const start = startFromSettings(
      {
        maxSupervisionRounds: 2,
        maxConcurrentResearchers: 3,
        researcherToolBudget: 6,
        relevantSourcesToStop: 2,
        budget: { maxCostUsd: 1 },
      },
      options,
    );
    expect(start.preset).toBe("quick");
    expect(start.values.numbers.maxSupervisionRounds).toBe("2");
  });

  it("is the defaults for a run without settings", () => {
    expect(startFromSettings({}, options)).toEqual(defaultStart(options));
  });
});
