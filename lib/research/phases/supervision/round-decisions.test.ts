import { describe, expect, it } from "vitest";
import { resolveResearchConfig } from "../../config.ts";
import type { SupervisionRoundRecord } from "../../store.ts";
import type { CoverageReport } from "./coverage.ts";
import { codeOf, decideRound, followUpRule, roundZeroRule } from "./round-decisions.ts";

const config = resolveResearchConfig({ maxSupervisionRounds: 3 });
const after = { heuristic: { confidence: 0.624 } } as CoverageReport;

function planned(assessment: Record<string, unknown>): SupervisionRoundRecord {
  return {
    round: 1,
    method: "coverage",
    directivesGenerated: 0,
    directivesExecuted: 0,
    newSources: 0,
    think: null,
    assessment,
    coverageBefore: null,
    coverageAfter: null,
    decision: null,
    reason: null,
  };
}

describe("a round's decision with its code", () => {
  it("writes round 0's stops with a code beside the English reason", () => {
    const off = roundZeroRule(resolveResearchConfig({ supervisionEnabled: false }))(3);
    expect(off).toMatchObject({
      code: "supervision_disabled",
      because: { code: "round_supervision_disabled" },
    });
    const none = roundZeroRule(resolveResearchConfig({ maxSupervisionRounds: 0 }))(3);
    expect(none).toMatchObject({
      reason: "max_rounds: no supervision rounds after round 0",
      because: { code: "round_no_rounds_after_zero" },
    });
  });

  it("writes a continue with its numbers, and coverage as a share", () => {
    const go = decideRound(
      config,
      { round: 1, rule: () => undefined, executed: 2, newSources: 3, elapsedMs: 0 },
      after,
    );
    expect(go).toEqual({
      decision: "continue",
      reason: "2 directive(s) researched, 3 new source(s); heuristic confidence 0.62",
      because: { code: "round_continue", values: { directives: 2, sources: 3, coverage: 0.62 } },
    });
  });

  it("keeps a planned stop's code, with the queued directives researched after it", () => {
    const why = { code: "round_no_follow_ups" };
    const rule = followUpRule(
      config,
      planned({ plannedStop: "no_new_directives: x", plannedStopBecause: why }),
    );
    expect(rule(0)).toMatchObject({
      code: "no_new_directives",
      reason: "no_new_directives: x",
      because: why,
    });
    expect(rule(2)).toMatchObject({
      reason: "no_new_directives: x; the 2 queued directive(s) were still researched",
      because: { code: "round_no_follow_ups", values: { queued: 2 } },
    });
  });

  it("decides a plan stored before codes as before: its stop code from the reason, no code of its own", () => {
    const stopped = followUpRule(config, planned({ plannedStop: "coverage_sufficient: done" }))(1);
    expect(stopped).toEqual({
      decision: "stop",
      code: "coverage_sufficient",
      reason: "coverage_sufficient: done; the 1 queued directive(s) were still researched",
    });
    expect(codeOf(stopped?.reason ?? null)).toBe("coverage_sufficient");
  });
});
