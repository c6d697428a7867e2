import { describe, expect, it } from "vitest";
import type { ResearchEvent } from "@/lib/research/events";
import type { ActivityEntry } from "../activity-model";
import { currentRound, currentStep, maxRounds, progressCounts, timeLeft, workingMs } from "./progress-model";
import { researcherLines, siteName } from "./researcher-lines";

const T0 = Date.parse("2026-01-01T10:00:00Z");
const at = (s: number) => new Date(T0 + s * 1000).toISOString();

/** A stored event `s` seconds after the run was created. */
function entry(s: number, event: ResearchEvent, directiveId: string | null = null): ActivityEntry {
  return { seq: s, type: event.type, at: at(s), directiveId, event };
}

const running = { status: "running" as const, createdAt: at(0), finishedAt: null };

describe("the stepper's step", () => {
  it("follows the phase, with plan review and citation checking as their own steps", () => {
    expect(currentStep({ status: "running", phase: "brief" }, [])).toBe("brief");
    expect(currentStep({ status: "awaiting_plan_review", phase: "supervision" }, [])).toBe("plan");
    expect(currentStep({ status: "running", phase: "supervision" }, [])).toBe("plan");
    const started = [entry(5, { type: "directive.started", directiveId: "d1" }, "d1")];
    expect(currentStep({ status: "running", phase: "supervision" }, started)).toBe("research");
    expect(currentStep({ status: "running", phase: "synthesis" }, started)).toBe("writing");
    const citations = entry(9, { type: "report.citations", kept: 3, removedUnknown: 0, flattenedLinks: 0 });
    expect(currentStep({ status: "running", phase: "synthesis" }, [...started, citations])).toBe("checking");
    expect(currentStep({ status: "completed", phase: "done" }, [])).toBe("done");
  });
});

describe("rounds", () => {
  it("counts the engine's round 0 as round 1, of round 0 plus the supervision rounds", () => {
    expect(currentRound([])).toBe(0);
    expect(currentRound([entry(1, { type: "supervision.round_started", round: 1, pending: 2 })])).toBe(2);
    expect(maxRounds({ maxSupervisionRounds: 2 })).toBe(3);
    expect(maxRounds({ maxSupervisionRounds: 2, supervisionEnabled: false })).toBe(1);
  });
});

describe("the working time", () => {
  const review = [
    entry(10, { type: "plan.awaiting_review", directives: 2 }),
    entry(70, { type: "plan.approved", edited: false }),
  ];

  it("stands still while the run waits for the person", () => {
    const waiting = { ...running, status: "awaiting_plan_review" as const };
    const first = workingMs(waiting, review.slice(0, 1), T0 + 20_000);
    expect(first).toBe(10_000);
    expect(workingMs(waiting, review.slice(0, 1), T0 + 50_000)).toBe(first);
  });

  it("leaves out the time the person took once the run goes on", () => {
    expect(workingMs(running, review, T0 + 100_000)).toBe(40_000);
  });
});

describe("the time left", () => {
  const settings = { maxSupervisionRounds: 2 };
  const round0 = [
    entry(0, { type: "supervision.round_started", round: 0, pending: 0 }),
    entry(100, { type: "supervision.round_completed", round: 0, decision: "continue", reason: "gaps" }),
    entry(100, { type: "supervision.round_started", round: 1, pending: 1 }),
  ];

  it("is unknown before the first round ends and while the person is asked", () => {
    const run = { status: "running" as const, phase: "supervision" as const, settings };
    expect(timeLeft(run, round0.slice(0, 1), T0 + 50_000)).toBeUndefined();
    expect(timeLeft({ ...run, status: "awaiting_plan_review" }, round0, T0 + 120_000)).toBeUndefined();
  });

  it("ranges from this round being the last to every allowed round, plus writing", () => {
    const run = { status: "running" as const, phase: "supervision" as const, settings };
    // Mean round 100 s, 20 s into round 2 of 3: 80 s left of it, one more round at most, writing 50 s.
    expect(timeLeft(run, round0, T0 + 120_000)).toEqual({ minMs: 130_000, maxMs: 230_000 });
  });

  it("never goes below zero when a round runs long", () => {
    const run = { status: "running" as const, phase: "supervision" as const, settings };
    const left = timeLeft(run, round0, T0 + 900_000);
    expect(left?.minMs).toBeGreaterThanOrEqual(0);
    expect(left?.minMs).toBe(50_000);
  });
});

describe("counts and researcher lines", () => {
  it("counts sources read and topics done", () => {
    const counts = progressCounts({
      sources: [{ readInFull: true }, { readInFull: false }] as never,
      directives: [{ status: "done" }, { status: "running" }, { status: "skipped" }] as never,
    });
    expect(counts).toEqual({ sourcesRead: 1, sourcesFound: 2, topicsDone: 1, topics: 2 });
  });

  it("names the site a researcher reads, never its address", () => {
    expect(siteName("http://127.0.0.1:4010/pages/a.html")).toBe("127.0.0.1");
    expect(siteName("https://www.example.org/x?y")).toBe("example.org");
    // A library document has no site: the card says "a document" in the page's language.
    expect(siteName("library://doc-1")).toBe("");
    const lines = researcherLines(
      {
        status: "running",
        directives: [
          { id: "d1", status: "running", title: "Heat pumps" },
          { id: "d2", status: "done", title: "Boilers" },
        ],
      },
      [
        entry(1, { type: "researcher.search", directiveId: "d1", query: "cop" }, "d1"),
        entry(
          2,
          {
            type: "researcher.fetch",
            directiveId: "d1",
            url: "https://www.example.org/p",
            ok: true,
          } as never,
          "d1",
        ),
      ],
    );
    expect(lines).toEqual([
      { directiveId: "d1", title: "Heat pumps", step: { kind: "reading", site: "example.org" } },
    ]);
  });
});
