import { describe, expect, it } from "vitest";
import type { ResearchEvent } from "@/lib/research/events";
import type { StreamedEvent } from "./activity-model";
import { applyEvent, needsFullRead } from "./apply-event";
import type { RunViewJson } from "./types";

const view = {
  id: "r1",
  status: "running",
  phase: "supervision",
  queuePosition: null,
  directives: [],
  sources: [],
  degradations: [],
  usage: {},
  lastEventSeq: 3,
  finishRequested: false,
} as unknown as RunViewJson;

let seq = 3;
const ev = (e: ResearchEvent): StreamedEvent => ({ ...e, seq: ++seq, at: "2026-01-01T10:00:00.000Z" });

describe("the run view kept from events", () => {
  it("adds a directive with its title and follows its status", () => {
    let v = applyEvent(
      view,
      ev({
        type: "directive.created",
        directiveId: "d1",
        round: 0,
        topic: "A long topic about heat pumps.",
        title: "Heat pumps",
        priority: "high",
        origin: "supervisor",
      }),
    );
    expect(v.directives).toMatchObject([
      { id: "d1", title: "Heat pumps", status: "pending", type: "initial" },
    ]);
    v = applyEvent(v, ev({ type: "directive.started", directiveId: "d1" }));
    expect(v.directives[0].status).toBe("running");
    v = applyEvent(v, ev({ type: "directive.completed", directiveId: "d1", sources: 2 }));
    expect(v.directives[0].status).toBe("done");
    expect(v.lastEventSeq).toBe(seq);
  });

  it("adds each source once and marks it read when its page is read", () => {
    const added = ev({
      type: "source.added",
      sourceId: "s1",
      directiveId: "d1",
      url: "https://example.org/a",
      title: "A",
      domain: "example.org",
      quality: "HIGH",
    });
    let v = applyEvent(applyEvent(view, added), added);
    expect(v.sources).toHaveLength(1);
    expect(v.sources[0].readInFull).toBe(false);
    v = applyEvent(
      v,
      ev({ type: "researcher.fetch", directiveId: "d1", url: "https://example.org/a", ok: true } as never),
    );
    expect(v.sources[0].readInFull).toBe(true);
  });

  it("follows the run's status through plan review and its phases", () => {
    let v = applyEvent(view, ev({ type: "plan.awaiting_review", directives: 2 }));
    expect(v.status).toBe("awaiting_plan_review");
    v = applyEvent(v, ev({ type: "plan.approved", edited: false }));
    expect(v.status).toBe("running");
    v = applyEvent(v, ev({ type: "phase.started", phase: "synthesis" }));
    expect(v.phase).toBe("synthesis");
  });

  it("keeps a round's record and the coverage after it from the round's end, with no read", () => {
    const record = {
      round: 0,
      method: "decomposition",
      directivesGenerated: 2,
      directivesExecuted: 2,
      newSources: 3,
      think: null,
      assessment: { finalCount: 2 },
      coverageBefore: null,
      coverageAfter: { overall: 0.6 },
      decision: "continue" as const,
      reason: "gaps remain",
    };
    const planned = {
      ...view,
      supervisionHistory: [{ ...record, decision: null, reason: null, coverageAfter: null }],
    };
    const end = ev({
      type: "supervision.round_completed",
      round: 0,
      decision: "continue",
      reason: "gaps remain",
      record,
    });
    expect(needsFullRead(end)).toBe(false);
    const v = applyEvent(planned as RunViewJson, end);
    expect(v.supervisionHistory).toEqual([record]);
    expect(v.coverage).toEqual({ overall: 0.6 });
    const next = applyEvent(
      v,
      ev({
        type: "supervision.round_completed",
        round: 1,
        decision: "stop",
        reason: "enough",
        record: { ...record, round: 1, decision: "stop", reason: "enough", coverageAfter: { overall: 0.9 } },
      }),
    );
    expect(next.supervisionHistory.map((r) => r.round)).toEqual([0, 1]);
    expect(next.coverage).toEqual({ overall: 0.9 });
  });

  it("shows a directive's findings from its completion, with no read", () => {
    const created = applyEvent(
      view,
      ev({
        type: "directive.created",
        directiveId: "d2",
        round: 0,
        topic: "Noise",
        priority: "high",
        origin: "supervisor",
      }),
    );
    const done = ev({
      type: "directive.completed",
      directiveId: "d2",
      sources: 1,
      findings: "Units run at 45 dB.",
    });
    expect(needsFullRead(done)).toBe(false);
    const v = applyEvent({ ...created, findings: {} }, done);
    expect(v.directives[0].status).toBe("done");
    expect(v.findings).toEqual({ d2: "Units run at 45 dB." });
  });

  it("shows the stored report and its verdicts from report.completed, and the run's end needs no read", () => {
    const verdicts = [
      {
        number: 1,
        sourceId: "s1",
        sentence: "Heat pumps work.",
        support: "supported" as const,
        reason: null,
      },
    ];
    const done = ev({
      type: "report.completed",
      chars: 20,
      citations: 1,
      partial: false,
      markdown: "# Report\n\nHeat pumps work. [1]",
      citationStats: { kept: 1, supported: 1 },
      verdicts,
    });
    expect(needsFullRead(done)).toBe(false);
    let v = applyEvent({ ...view, report: null, citations: [], citationStats: null } as RunViewJson, done);
    expect(v.report).toBe("# Report\n\nHeat pumps work. [1]");
    // An event from before reasons had codes: no `because`, so the card says the English reason.
    expect(v.citations).toEqual([{ ...verdicts[0], because: null }]);
    const coded = {
      ...verdicts[0],
      reason: "no sentence to check",
      because: { code: "verdict_no_sentence" },
    };
    const recoded = applyEvent(v, { ...done, verdicts: [coded] } as typeof done);
    expect(recoded.citations).toEqual([coded]);
    expect(v.citationStats).toEqual({ kept: 1, supported: 1 });
    const end = ev({ type: "run.completed", sources: 1, citations: 1, partial: false });
    expect(needsFullRead(end)).toBe(false);
    v = applyEvent(v, end);
    expect(v).toMatchObject({ status: "completed", phase: "done", finishedAt: "2026-01-01T10:00:00.000Z" });
    expect(needsFullRead(ev({ type: "run.failed", reason: "x", partial: false }))).toBe(false);
    expect(needsFullRead(ev({ type: "run.cancelled", reason: "x" }))).toBe(false);
  });

  it("applies the plan edits carried by plan.approved", () => {
    let v = view;
    for (const id of ["d1", "d2"]) {
      v = applyEvent(
        v,
        ev({
          type: "directive.created",
          directiveId: id,
          round: 0,
          topic: `Topic ${id}`,
          priority: "normal",
          origin: "supervisor",
        }),
      );
    }
    const approved = ev({
      type: "plan.approved",
      edited: true,
      changes: [
        {
          directiveId: "d1",
          topic: "Running costs in Oslo",
          title: "Running costs in Oslo",
          priority: "high",
        },
        { directiveId: "d2", dropped: true },
      ],
    });
    expect(needsFullRead(approved)).toBe(false);
    v = applyEvent(v, approved);
    expect(v.status).toBe("running");
    expect(v.directives).toMatchObject([
      {
        id: "d1",
        topic: "Running costs in Oslo",
        title: "Running costs in Oslo",
        priority: "high",
        status: "pending",
      },
      { id: "d2", status: "skipped" },
    ]);
  });

  it("keeps usage by role and model from usage.updated", () => {
    const usage = {
      total: { calls: 2, inputTokens: 10, outputTokens: 5, costUsd: 0.01 },
      byRole: { researcher: { calls: 2, inputTokens: 10, outputTokens: 5, costUsd: 0.01 } },
      byModel: {},
    };
    const v = applyEvent(
      view,
      ev({ type: "usage.updated", inputTokens: 10, outputTokens: 5, cost: 0.01, usage } as never),
    );
    expect(v.usage).toEqual(usage);
  });

  it("reads the run in full only for an event stored before it carried what the view shows", () => {
    expect(needsFullRead(ev({ type: "researcher.search", directiveId: "d1", query: "q" }))).toBe(false);
    expect(
      needsFullRead(ev({ type: "supervision.round_completed", round: 0, decision: "stop", reason: "x" })),
    ).toBe(true);
    expect(needsFullRead(ev({ type: "report.completed", chars: 1, citations: 0, partial: false }))).toBe(
      true,
    );
    expect(needsFullRead(ev({ type: "directive.completed", directiveId: "d1", sources: 0 }))).toBe(true);
    expect(needsFullRead(ev({ type: "plan.approved", edited: false }))).toBe(false);
  });
});
