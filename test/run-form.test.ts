// The home page's question form on the server side: presets and options within the server's
// ceilings, the providers and models it offers, and how the posted fields become POST /api/runs's
// body (createRunSchema), with or without JavaScript having refilled the options.
import { describe, expect, it } from "vitest";
import { absoluteTime, formatDuration, relativeTime, runDuration } from "../components/home/time-format.ts";
import { runFormOptions, runInputFromForm } from "../lib/server/runs/form.ts";
import { createRunSchema } from "../lib/server/runs/input.ts";

const env = {
  MODEL: "openai-compatible:small",
  MODEL_SYNTHESIS: "openai-compatible:large",
  OPENAI_COMPATIBLE_BASE_URL: "http://127.0.0.1:9/v1",
  SEARCH_PROVIDERS: "searxng",
  SEARXNG_URL: "http://127.0.0.1:8888",
  RUN_MAX_ROUNDS: "4",
  RUN_MAX_RESEARCHERS: "6",
  RUN_MAX_COST_USD: "10",
  RUN_DEFAULT_COST_USD: "3",
};

const standardFields = (o = runFormOptions(env)) => {
  const p = o.presets.standard;
  return {
    question: "Heat pumps in cold climates?",
    preset: "standard",
    basePreset: "standard",
    maxSupervisionRounds: String(p.maxSupervisionRounds),
    maxConcurrentResearchers: String(p.maxConcurrentResearchers),
    researcherToolBudget: String(p.researcherToolBudget),
    relevantSourcesToStop: String(p.relevantSourcesToStop),
    maxCostUsd: String(p.maxCostUsd),
    maxTokens: "",
    searchProviders: "searxng",
  };
};

describe("runFormOptions", () => {
  it("keeps every preset and maximum within the server's ceilings", () => {
    const o = runFormOptions(env);
    expect(o.max).toMatchObject({ maxSupervisionRounds: 4, maxConcurrentResearchers: 6, maxCostUsd: 10 });
    expect(o.presets.deep).toMatchObject({
      maxSupervisionRounds: 4,
      maxConcurrentResearchers: 6,
      maxCostUsd: 10,
    });
    expect(o.presets.standard).toMatchObject({
      maxSupervisionRounds: 3,
      maxConcurrentResearchers: 5,
      maxCostUsd: 3,
    });
    expect(o.presets.quick.maxSupervisionRounds).toBeLessThan(o.presets.standard.maxSupervisionRounds);
  });

  it("offers only configured providers and models, and names a search misconfiguration", () => {
    const o = runFormOptions(env);
    expect(o.providers.map((p) => p.name)).toEqual(["library", "searxng"]);
    expect(o.defaultProviders).toEqual(["searxng"]);
    expect(o.models.allowed).toEqual(["openai-compatible:small", "openai-compatible:large"]);
    expect(o.searchProblem).toBeNull();
    const broken = runFormOptions({ ...env, SEARXNG_URL: "" });
    expect(broken.providers.map((p) => p.name)).toEqual(["library"]);
    expect(broken.searchProblem).toContain("SEARXNG_URL");
  });
});

describe("runInputFromForm", () => {
  it("turns the Standard form into a valid API body, leaving the server's default providers implicit", () => {
    const o = runFormOptions(env);
    const input = createRunSchema.parse(runInputFromForm(standardFields(o), o));
    expect(input).toEqual({
      question: "Heat pumps in cold climates?",
      settings: {
        maxSupervisionRounds: 3,
        maxConcurrentResearchers: 5,
        researcherToolBudget: 10,
        relevantSourcesToStop: 3,
        budget: { maxCostUsd: 3 },
        planReview: false,
        clarification: false,
      },
    });
  });

  it("applies a preset chosen without JavaScript, keeping the fields the person changed", () => {
    const o = runFormOptions(env);
    const fields = { ...standardFields(o), preset: "quick", maxConcurrentResearchers: "2", planReview: "on" };
    const { settings } = createRunSchema.parse(runInputFromForm(fields, o));
    expect(settings).toMatchObject({
      maxSupervisionRounds: o.presets.quick.maxSupervisionRounds,
      maxConcurrentResearchers: 2,
      budget: { maxCostUsd: o.presets.quick.maxCostUsd },
      planReview: true,
    });
  });

  it("names chosen providers and models, and refuses a model or no provider the server does not offer", () => {
    const o = runFormOptions(env);
    const fields = {
      ...standardFields(o),
      searchProviders: ["searxng", "library"],
      "model.researcher": "openai-compatible:large",
      "model.synthesis": "openai-compatible:large",
      maxTokens: "50000",
    };
    const { settings } = createRunSchema.parse(runInputFromForm(fields, o));
    expect(settings.searchProviders).toEqual(["searxng", "library"]);
    expect(settings.models).toEqual({ researcher: "openai-compatible:large" });
    expect(settings.budget).toEqual({ maxCostUsd: 3, maxTokens: 50000 });
    expect(() => runInputFromForm({ ...fields, "model.researcher": "openai:gpt-4.1" }, o)).toThrow(
      /not one this server offers/,
    );
    expect(() => runInputFromForm({ ...fields, searchProviders: [] }, o)).toThrow(/at least one place/);
  });

  it("keeps a chosen report language, leaves auto implicit and refuses a language it cannot write in", () => {
    const o = runFormOptions(env);
    const parse = (reportLanguage: string) =>
      createRunSchema.safeParse(runInputFromForm({ ...standardFields(o), reportLanguage }, o));
    expect(parse("de").data?.settings.reportLanguage).toBe("de");
    expect(parse("auto").data?.settings).not.toHaveProperty("reportLanguage");
    const bad = parse("tlh");
    expect(bad.success).toBe(false);
    expect(bad.error?.issues[0].path).toEqual(["settings", "reportLanguage"]);
  });
});

describe("recent runs' times", () => {
  const now = new Date("2026-03-01T12:00:00Z");
  it("says when in words and exactly", () => {
    expect(relativeTime(new Date("2026-03-01T11:57:00Z"), now)).toBe("3 minutes ago");
    expect(relativeTime(new Date("2026-02-28T11:00:00Z"), now)).toBe("yesterday");
    expect(relativeTime(new Date("2026-03-01T11:59:50Z"), now)).toBe("just now");
    expect(absoluteTime(now)).toBe("1 Mar 2026, 12:00 UTC");
  });
  it("says how long a run took or has been running", () => {
    expect(formatDuration(45_000)).toBe("45 s");
    expect(formatDuration(7.5 * 60_000)).toBe("8 min");
    expect(formatDuration(65 * 60_000)).toBe("1 h 5 min");
    const started = new Date("2026-03-01T11:50:00Z");
    expect(runDuration({ startedAt: started, finishedAt: null }, now)).toEqual({
      text: "10 min",
      ongoing: true,
    });
    expect(runDuration({ startedAt: null, finishedAt: null }, now)).toBeNull();
  });
});
