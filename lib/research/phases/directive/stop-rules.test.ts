import { describe, expect, it } from "vitest";
import { extractionKeptFindings, summaryKeptFindings } from "./read-relevance.ts";
import { createStopRules, jaccard } from "./stop-rules.ts";

const rules = () => createStopRules({ relevantSourcesToStop: 2, similarSearchOverlap: 0.6, toolBudget: 5 });

describe("stop rules", () => {
  it("measures search overlap as Jaccard over URL sets; an empty search overlaps nothing", () => {
    expect(jaccard(["a", "b", "c"], ["a", "b", "c", "d"])).toBe(0.75);
    expect(jaccard(["a", "b"], ["c"])).toBe(0);
    expect(jaccard([], [])).toBe(0);
    expect(jaccard(["a", "a", "b"], ["a", "b"])).toBe(1);
  });

  it("waits for a reflection before the relevance and similarity rules; the budget is final at once", () => {
    const r = rules();
    r.recordSearch(["a", "b"]);
    r.recordSearch(["a", "b"]);
    expect(r.ruleMet(2, false)).toBeUndefined();
    expect(r.ruleMet(2, true)).toBe("similar_searches");
    expect(r.ruleMet(5, false)).toBe("budget");
  });

  it("counts each read source once, relevant if any reading of it was", () => {
    const r = rules();
    r.recordRead("s1", false);
    r.recordRead("s1", true);
    r.recordRead("s2", false);
    expect(r.counts(3)).toMatchObject({ sourcesRead: 2, relevantSources: 1 });
    expect(r.ruleMet(3, true)).toBeUndefined();
    r.recordRead("s3", true);
    expect(r.ruleMet(4, true)).toBe("relevant_sources");
    expect(r.readOf("s2")).toEqual({ relevant: false });
  });
});

describe("read relevance", () => {
  it("takes a summary as relevant unless it opens with the no-findings marker", () => {
    expect(summaryKeptFindings("Boreholes are 100 m deep.")).toBe(true);
    expect(summaryKeptFindings("NOTHING ON TOPIC. A furniture shop.")).toBe(false);
    expect(summaryKeptFindings("   ")).toBe(false);
  });

  it("takes extracted text as relevant when it mentions two of the topic's terms (by stem)", () => {
    const topic = "Record solar cell efficiencies in 2025";
    expect(extractionKeptFindings(topic, "The best solar cell efficiency measured...")).toBe(true);
    expect(extractionKeptFindings(topic, "Solar news and gardening tips.")).toBe(false);
    expect(extractionKeptFindings("Perovskites", "Perovskite stability data.")).toBe(true);
  });
});
