import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { DatabaseHandle } from "../../db/client.ts";
import { createRun, getRun, updateRunStatus } from "../../db/queries/runs.ts";
import { createDbRunStore } from "../../db/research-store.ts";
import { openMigratedPglite } from "../../test/support/db-template.ts";
import { driverDeps } from "../../test/support/driver-deps.ts";
import { recordingEnd } from "../../test/support/recording-store.ts";
import { BudgetExceededError } from "../ai/usage.ts";
import { STATE_VERSION } from "./checkpoint.ts";
import type { ResearchEvent } from "./events.ts";
import type { Phases } from "./phases-contract.ts";
import { runResearch } from "./run.ts";

let h: DatabaseHandle;
beforeAll(async () => {
  h = await openMigratedPglite();
});
afterAll(async () => {
  await h.close();
});

async function setup(settings: Record<string, unknown> = {}) {
  const run = await createRun(h.db, { ownerId: "o", question: "Are heat pumps efficient?", settings });
  const events: ResearchEvent[] = [];
  const controller = new AbortController();
  const store = recordingEnd(createDbRunStore(h.db, run.id), events);
  const deps = driverDeps({
    store,
    events: { emit: async (e) => void events.push(e) },
    signal: controller.signal,
    settings,
  });
  return { run, events, controller, store, deps };
}

/** Phases that store real rows through the store and count their calls. */
function fakePhases(calls: string[], overrides: Partial<Phases> = {}): Phases {
  return {
    clarify: async () => ({ needed: false }),
    writeBrief: async (deps, { question }) => {
      calls.push("brief");
      const brief = `I want to know: ${question}`;
      await deps.store.saveBrief(brief);
      return brief;
    },
    planFirstRound: async (deps) => {
      calls.push("plan");
      await deps.store.addDirectives([{ round: 0, topic: "COP of air-source heat pumps" }]);
    },
    runSupervision: async (deps, { executeDirective }) => {
      calls.push("supervision");
      await deps.store.addDirectives([{ round: 0, topic: "COP of air-source heat pumps" }]);
      for (const d of await deps.store.listDirectives()) {
        if (d.status === "pending") await executeDirective(d);
      }
      return { rounds: 1, stopReason: "coverage sufficient" };
    },
    executeDirective: async (deps, d, _ctx) => {
      calls.push(`execute:${d.topic}`);
      const { source } = await deps.store.addSource(d.id, {
        url: "https://example.org/cop",
        normalizedUrl: "https://example.org/cop",
        title: "COP",
        domain: "example.org",
        provider: "test",
        quality: "MEDIUM",
        content: "A COP of 3 means three units of heat per unit of electricity.",
      });
      await deps.store.saveResearcherResult({
        directiveId: d.id,
        messages: [],
        compressedFindings: "COP is about 3 [1].",
        rawNotes: null,
        toolCalls: 1,
        stopReason: "complete",
      });
      return { directiveId: d.id, findings: "COP is about 3 [1].", sourceIds: [source.id], ok: true };
    },
    writeReport: async (deps) => {
      calls.push("report");
      const markdown =
        "## Efficiency\n\nA COP of 3 [1].\n\n## Sources\n\n[1] [COP](https://example.org/cop)\n";
      await deps.store.saveReport({ markdown, partial: false, citationStats: {} });
      return { markdown, partial: false };
    },
    writePartialReport: async (deps, { reason }) => {
      calls.push("partial");
      const markdown = `> Partial report: ${reason}\n`;
      await deps.store.saveReport({ markdown, partial: true, citationStats: {} });
      return { markdown };
    },
    extractKnowledge: async () => {
      calls.push("knowledge");
      return 0;
    },
    ...overrides,
  } as Phases;
}

describe("runResearch", () => {
  it("runs every phase in order and ends completed with run.completed last", async () => {
    const s = await setup();
    const calls: string[] = [];
    const outcome = await runResearch(s.deps, fakePhases(calls));
    expect(outcome).toEqual({ status: "completed", partial: false });
    expect(calls).toEqual([
      "brief",
      "supervision",
      "execute:COP of air-source heat pumps",
      "report",
      "knowledge",
    ]);
    expect(s.events.at(-1)).toEqual({ type: "run.completed", sources: 1, citations: 1, partial: false });
    expect(s.events[0]).toEqual({ type: "run.started", attempt: 1 });
    const row = await getRun(h.db, s.run.id);
    expect(row?.status).toBe("completed");
    expect(row?.phase).toBe("done");
    expect(row?.stateVersion).toBe(STATE_VERSION);
  });

  it("resumes after a crash without re-running finished phases", async () => {
    const s = await setup();
    const calls: string[] = [];
    const crash = new Error("worker died");
    const first = await runResearch(
      s.deps,
      fakePhases(calls, {
        writeReport: async () => {
          throw crash;
        },
        writePartialReport: async () => undefined,
      }),
    );
    expect(first.status).toBe("failed");
    // A crashed worker leaves the run as it was; simulate that by putting the status back.
    await updateRunStatus(h.db, s.run.id, { status: "running", error: null });
    const again: string[] = [];
    const second = await runResearch(s.deps, fakePhases(again));
    expect(second.status).toBe("completed");
    expect(again).toEqual(["report", "knowledge"]);
    expect(s.events.filter((e) => e.type === "run.resumed")).toHaveLength(1);
  });

  it("migrates a version-1 checkpoint explicitly and says so with a legacy_resume event", async () => {
    const s = await setup();
    await s.store.saveBrief("I want to know about heat pumps.");
    await s.store.saveCheckpoint({ phase: "supervision", attempts: 1 }, 1);
    const calls: string[] = [];
    const outcome = await runResearch(s.deps, fakePhases(calls));
    expect(outcome.status).toBe("completed");
    expect(calls[0]).toBe("supervision");
    const legacy = s.events.find((e) => e.type === "run.legacy_resume");
    expect(legacy).toMatchObject({ fromVersion: 1, toVersion: STATE_VERSION });
  });

  it("ends cancelled when the signal is aborted as a cancellation", async () => {
    const s = await setup();
    const calls: string[] = [];
    const outcome = await runResearch(
      s.deps,
      fakePhases(calls, {
        runSupervision: async () => {
          s.controller.abort({ kind: "cancelled", by: "the user" });
          throw new DOMException("aborted", "AbortError");
        },
      }),
    );
    expect(outcome).toEqual({ status: "cancelled" });
    expect(s.events.at(-1)).toMatchObject({ type: "run.cancelled" });
    expect((await getRun(h.db, s.run.id))?.status).toBe("cancelled");
    expect(calls).not.toContain("report");
  });

  it("leaves the run untouched for another worker when interrupted by shutdown", async () => {
    const s = await setup();
    const outcome = await runResearch(
      s.deps,
      fakePhases([], {
        runSupervision: async () => {
          s.controller.abort({ kind: "shutdown" });
          throw new DOMException("aborted", "AbortError");
        },
      }),
    );
    expect(outcome).toEqual({ status: "interrupted" });
    expect((await getRun(h.db, s.run.id))?.status).toBe("running");
    expect(s.events.some((e) => e.type.startsWith("run.") && e.type !== "run.started")).toBe(false);
  });

  it("fails with a readable reason and a partial report when the budget runs out", async () => {
    const s = await setup();
    const calls: string[] = [];
    const outcome = await runResearch(
      s.deps,
      fakePhases(calls, {
        writeReport: async () => {
          throw new BudgetExceededError({ limit: "tokens", max: 1000, used: 1200 });
        },
      }),
    );
    expect(outcome).toMatchObject({ status: "failed", partial: true });
    expect(calls).toContain("partial");
    const row = await getRun(h.db, s.run.id);
    expect(row?.error).toMatch(/budget/i);
    expect(s.events.at(-1)).toMatchObject({ type: "run.failed", partial: true });
  });

  it("fails with the time limit as the reason on a timeout abort", async () => {
    const s = await setup();
    const outcome = await runResearch(
      s.deps,
      fakePhases([], {
        runSupervision: async () => {
          s.controller.abort({ kind: "timeout", limitMs: 60_000 });
          throw new DOMException("aborted", "AbortError");
        },
      }),
    );
    expect(outcome).toMatchObject({ status: "failed" });
    expect((outcome as { reason: string }).reason).toMatch(/time limit of 60 s/);
  });

  it("ends a phase that runs past its limit as failed, with the reason and a partial report", async () => {
    const s = await setup({ phaseTimeoutMs: 1000 });
    const calls: string[] = [];
    let phaseSignal: AbortSignal | undefined;
    const outcome = await runResearch(
      s.deps,
      fakePhases(calls, {
        writeReport: async (deps) => {
          phaseSignal = deps.signal;
          await new Promise((_, reject) =>
            deps.signal.addEventListener("abort", () => reject(deps.signal.reason)),
          );
          return { markdown: "", partial: false };
        },
      }),
    );
    expect(outcome).toMatchObject({ status: "failed", partial: true });
    expect((outcome as { reason: string }).reason).toBe(
      "The synthesis phase exceeded its time limit of 1 s.",
    );
    // The same reason as a code, on the event and the run row, for readers in other languages.
    const because = { code: "phase_time_limit", values: { phase: "synthesis", seconds: 1 } };
    expect(s.events.at(-1)).toMatchObject({ type: "run.failed", because });
    expect((await getRun(h.db, s.run.id))?.errorBecause).toEqual(because);
    expect(phaseSignal?.aborted).toBe(true);
    expect(s.deps.signal.aborted).toBe(false);
    expect(calls).toContain("partial");
  });

  it("with plan review on, stops after planning and continues once the plan is approved", async () => {
    const s = await setup({ planReview: true });
    const calls: string[] = [];
    const first = await runResearch(s.deps, fakePhases(calls));
    expect(first).toEqual({ status: "awaiting_plan_review", directives: 1 });
    expect(calls).toEqual(["brief", "plan"]);
    expect((await getRun(h.db, s.run.id))?.status).toBe("awaiting_plan_review");
    expect(s.events.at(-1)).toEqual({ type: "plan.awaiting_review", directives: 1 });
    // What the API does on approval: mark the checkpoint approved.
    const snap = await s.store.getRun();
    await s.store.saveCheckpoint({ ...snap.checkpoint, planApproved: true }, STATE_VERSION);
    const second = await runResearch(s.deps, fakePhases(calls));
    expect(second.status).toBe("completed");
    expect(calls.slice(2)).toEqual([
      "supervision",
      "execute:COP of air-source heat pumps",
      "report",
      "knowledge",
    ]);
  });

  it("waits for a clarification when one is needed, and does nothing for a finished run", async () => {
    const s = await setup({ clarification: true });
    const outcome = await runResearch(
      s.deps,
      fakePhases([], { clarify: async () => ({ needed: true, question: "Which climate?" }) }),
    );
    expect(outcome).toEqual({ status: "awaiting_clarification", question: "Which climate?" });
    const waiting = await getRun(h.db, s.run.id);
    expect(waiting?.clarificationQuestion).toBe("Which climate?");
    expect(waiting?.status).toBe("awaiting_clarification");
    expect(waiting?.phase).toBe("clarification");

    await updateRunStatus(h.db, s.run.id, { status: "completed" });
    const before = s.events.length;
    const again = await runResearch(s.deps, fakePhases([]));
    expect(again.status).toBe("completed");
    expect(s.events.length).toBe(before);
  });

  it("stops researching when the owner asks for the report now, and writes it as partial", async () => {
    const s = await setup();
    const gather = new AbortController();
    s.deps.gatherSignal = gather.signal;
    let reportInput: { writtenEarly?: boolean } | undefined;
    const phases = fakePhases([], {
      runSupervision: async (deps, { executeDirective }) => {
        const { created } = await deps.store.addDirectives([
          { round: 0, topic: "COP of air-source heat pumps" },
          { round: 0, topic: "Running costs in cold climates" },
        ]);
        const [first, second] = created;
        await executeDirective(first);
        await deps.store.setDirectiveStatus(first.id, "done");
        // The second researcher is mid-way when the owner asks for the report.
        await deps.store.setDirectiveStatus(second.id, "running");
        gather.abort();
        deps.signal.throwIfAborted();
        throw new Error("supervision went on after the owner asked for the report");
      },
      writeReport: async (deps, input) => {
        reportInput = input;
        const markdown = "## Efficiency\n\nA COP of 3 [1].\n";
        await deps.store.saveReport({ markdown, partial: Boolean(input.writtenEarly), citationStats: {} });
        return { markdown, partial: Boolean(input.writtenEarly) };
      },
    });
    const outcome = await runResearch(s.deps, phases);
    expect(outcome).toEqual({ status: "completed", partial: true });
    expect(reportInput?.writtenEarly).toBe(true);
    expect(s.events).toContainEqual({
      type: "supervision.stopped_early",
      reason: "the owner asked for the report now",
      researched: 1,
    });
    const statuses = (await s.store.listDirectives()).map((d) => d.status);
    expect(statuses).toEqual(["done", "skipped"]);
    expect(s.events.at(-1)).toMatchObject({ type: "run.completed", partial: true });
    const row = await getRun(h.db, s.run.id);
    expect(row?.checkpoint).toMatchObject({ gatheringStopped: true });
  });

  it("a run resumed after the owner asked for the report does not research again", async () => {
    const s = await setup();
    const gather = new AbortController();
    gather.abort();
    s.deps.gatherSignal = gather.signal;
    const calls: string[] = [];
    const written: { writtenEarly?: boolean }[] = [];
    const base = fakePhases(calls);
    const phases = fakePhases(calls, {
      writeReport: async (deps, input) => {
        written.push(input);
        return base.writeReport(deps, input);
      },
    });
    expect((await runResearch(s.deps, phases)).status).toBe("completed");
    expect(calls).toEqual(["brief", "report", "knowledge"]);
    expect(written.map((w) => w.writtenEarly)).toEqual([true]);
    expect(s.events.some((e) => e.type === "supervision.stopped_early")).toBe(true);
  });

  it("a cancelled run leaves no directive reading running", async () => {
    const s = await setup();
    const phases = fakePhases([], {
      runSupervision: async (deps) => {
        const { created } = await deps.store.addDirectives([
          { round: 0, topic: "COP of air-source heat pumps" },
        ]);
        await deps.store.setDirectiveStatus(created[0].id, "running");
        s.controller.abort({ kind: "cancelled", by: "the user" });
        deps.signal.throwIfAborted();
        return { rounds: 1, stopReason: "unreachable" };
      },
    });
    expect(await runResearch(s.deps, phases)).toEqual({ status: "cancelled" });
    const [d] = await s.store.listDirectives();
    expect(d.status).toBe("skipped");
    expect(s.events).toContainEqual({
      type: "directive.skipped",
      directiveId: d.id,
      reason: "the run was cancelled",
      because: { code: "skip_run_cancelled" },
    });
    expect(s.events.at(-1)).toEqual({
      type: "run.cancelled",
      reason: "cancelled by the user",
      because: { code: "cancelled_by_user" },
    });
  });
});
