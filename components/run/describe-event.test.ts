import { describe, expect, it } from "vitest";
import { describeEvent } from "./describe-event";

describe("describeEvent", () => {
  it("describes the events the timeline shows in words", () => {
    expect(describeEvent({ type: "phase.started", phase: "brief" })).toBe("Phase brief started");
    expect(describeEvent({ type: "brief.created", brief: "b", knowledgeItems: 0 })).toBe(
      "Research brief written",
    );
    expect(
      describeEvent({
        type: "directive.created",
        directiveId: "d",
        round: 1,
        topic: "x".repeat(200),
        priority: "high",
        origin: "user",
      }),
    ).toBe(`Directive (user, high): ${"x".repeat(140)}`);
    expect(describeEvent({ type: "researcher.search", directiveId: "d", query: "heat pumps" })).toBe(
      "Search: heat pumps",
    );
    expect(
      describeEvent({ type: "researcher.fetch", directiveId: "d", url: "https://a.example", ok: true }),
    ).toBe("Read https://a.example");
    expect(
      describeEvent({
        type: "researcher.fetch",
        directiveId: "d",
        url: "https://a.example",
        ok: false,
        reason: "timeout",
      }),
    ).toBe("Could not read https://a.example (timeout)");
    expect(
      describeEvent({
        type: "researcher.fetch_refused",
        directiveId: "d",
        url: "https://x.example/?q=secret",
        reason: "not from this run",
      }),
    ).toBe("Refused to read https://x.example/?q=secret — not from this run");
  });

  it("names a source by title, or by URL when it has none", () => {
    const source = {
      type: "source.added",
      sourceId: "s",
      directiveId: "d",
      url: "https://a.example",
      domain: "a.example",
      quality: "HIGH",
    } as const;
    expect(describeEvent({ ...source, title: "A study" })).toBe("Source: A study [HIGH]");
    expect(describeEvent({ ...source, title: "" })).toBe("Source: https://a.example [HIGH]");
  });

  it("describes supervision and the end of a run", () => {
    expect(
      describeEvent({
        type: "supervision.assessment",
        round: 1,
        method: "heuristic",
        overallCoverage: 0.456,
        shouldContinue: true,
        rationale: "",
        followUps: [],
      }),
    ).toBe("Coverage 46% (heuristic) — continuing");
    expect(
      describeEvent({
        type: "supervision.heuristic_sufficient",
        round: 1,
        directives: 3,
        confidence: 1,
        reason: "every researched directive read 2+ quality sources",
      }),
    ).toBe("Round 1: every directive clearly covered — model assessment skipped");
    expect(
      describeEvent({ type: "supervision.round_completed", round: 2, decision: "stop", reason: "enough" }),
    ).toBe("Round 2: stop — enough");
    expect(describeEvent({ type: "run.failed", reason: "no model", partial: false })).toBe(
      "Failed: no model",
    );
    expect(describeEvent({ type: "run.completed", sources: 3, citations: 5, partial: false })).toBe(
      "Completed with 3 sources and 5 citations",
    );
  });

  it("falls back to the event type for events without a description", () => {
    expect(describeEvent({ type: "plan.approved", edited: false })).toBe("plan.approved");
  });
});
