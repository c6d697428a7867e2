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

  it("reads the run in full only where an event cannot say enough", () => {
    expect(needsFullRead.has("researcher.search")).toBe(false);
    expect(needsFullRead.has("source.added")).toBe(false);
    expect(needsFullRead.has("run.completed")).toBe(true);
  });
});
