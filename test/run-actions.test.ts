// The API's run actions against embedded PGlite with the real queue and bus: each action's event
// is written in the action's transaction and announced after it, with the seq it was written with.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { DatabaseHandle } from "../db/client.ts";
import { appendEvent, listEventsAfter } from "../db/queries/events.ts";
import { createRun, getRun, updateRunStatus } from "../db/queries/runs.ts";
import { createDbRunStore } from "../db/research-store.ts";
import type { AppError } from "../lib/errors.ts";
import type { BusMessage } from "../lib/jobs/bus.ts";
import { getBoss, RUN_QUEUE } from "../lib/jobs/queue.ts";
import type { Runtime } from "../lib/jobs/runtime.ts";
import { approvePlan } from "../lib/server/runs/approve-plan.ts";
import { cancelRun } from "../lib/server/runs/cancel.ts";
import { answerClarification } from "../lib/server/runs/clarify.ts";
import { createAndEnqueueRun } from "../lib/server/runs/start.ts";
import { addUserDirective } from "../lib/server/runs/steer.ts";
import { runView } from "../lib/server/runs/view-model.ts";
import { closeActionRuntime, openActionRuntime } from "./support/action-runtime.ts";

let h: DatabaseHandle;
let rt: Runtime;
beforeAll(async () => {
  ({ h, rt } = await openActionRuntime());
}, 60_000);
afterAll(() => closeActionRuntime(h));

const OWNER = "owner";

/** Listens to the run's bus messages; returns the announced events as "seq:type". */
function listen(runId: string) {
  const messages: BusMessage[] = [];
  const stop = rt.bus.subscribe(runId, (m) => messages.push(m));
  const announced = () => messages.flatMap((m) => (m.kind === "event" ? [`${m.seq}:${m.type}`] : []));
  return { messages, announced, stop };
}

const written = async (runId: string, after = 0) =>
  (await listEventsAfter(h.db, runId, after)).map((e) => `${e.seq}:${e.type}`);

/** A run stopped where a worker leaves it waiting for the person, with a few events already written. */
async function waitingRun(status: "awaiting_plan_review" | "awaiting_clarification") {
  const run = await createRun(h.db, { ownerId: OWNER, question: "Heat pumps?", settings: {} });
  await appendEvent(h.db, run.id, { type: "run.created", question: run.question, settings: {} });
  await appendEvent(h.db, run.id, { type: "run.started", attempt: 1 });
  const store = createDbRunStore(h.db, run.id);
  const { created } = await store.addDirectives([
    { round: 0, topic: "Efficiency of air-source heat pumps in cold climates" },
    { round: 0, topic: "Installation cost of ground-source heat pumps" },
  ]);
  if (status === "awaiting_plan_review") {
    await updateRunStatus(h.db, run.id, { status, phase: "supervision" });
    await appendEvent(h.db, run.id, { type: "plan.awaiting_review", directives: created.length });
  } else {
    await store.askClarification("Which country?");
    await appendEvent(h.db, run.id, { type: "clarification.requested", question: "Which country?" });
  }
  return { run, directives: created };
}

describe("run actions announce the seq they wrote", () => {
  it("createAndEnqueueRun: run.created is seq 1, announced once it is committed with its job", async () => {
    const run = await createAndEnqueueRun(rt, { ownerId: OWNER, question: "New run?", settings: {} });
    expect(await written(run.id)).toEqual(["1:run.created"]);
    const job = await (await getBoss(h)).getJobById(RUN_QUEUE, (await getRun(h.db, run.id))?.jobId ?? "");
    expect(job?.data).toEqual({ runId: run.id });
  });

  it("cancel of a queued run: ends it, cancels its job, announces run.cancelled with its seq", async () => {
    const run = await createAndEnqueueRun(rt, { ownerId: OWNER, question: "Cancel me?", settings: {} });
    const l = listen(run.id);
    expect(await cancelRun(rt, run.id, OWNER)).toEqual({ status: "cancelled" });
    l.stop();
    expect(await written(run.id)).toEqual(["1:run.created", "2:run.cancelled"]);
    expect(l.announced()).toEqual(["2:run.cancelled"]);
    const [ended] = await listEventsAfter(h.db, run.id, 1);
    expect(ended.payload).toEqual({
      reason: "cancelled by the user before it ran",
      because: { code: "cancelled_before_start" },
    });
    const row = await getRun(h.db, run.id);
    expect(row?.status).toBe("cancelled");
    expect(row?.finishedAt).toBeInstanceOf(Date);
    const job = await (await getBoss(h)).getJobById(RUN_QUEUE, row?.jobId ?? "");
    expect(job?.state).toBe("cancelled");
  });

  it("cancel of a running run: flags it and sends the cancel message, writing no event", async () => {
    const run = await createRun(h.db, { ownerId: OWNER, question: "Running?", settings: {} });
    await updateRunStatus(h.db, run.id, { status: "running", phase: "brief" });
    const l = listen(run.id);
    expect(await cancelRun(rt, run.id, OWNER)).toEqual({ status: "cancelling" });
    l.stop();
    expect(l.messages).toEqual([{ kind: "cancel", runId: run.id }]);
    expect((await getRun(h.db, run.id))?.cancelRequestedAt).toBeInstanceOf(Date);
    expect(await written(run.id)).toEqual([]);
  });

  it("approvePlan: applies the edits, queues the run, announces plan.approved with the seq written", async () => {
    const { run, directives } = await waitingRun("awaiting_plan_review");
    const l = listen(run.id);
    await approvePlan(rt, run.id, OWNER, [
      { id: directives[0].id, priority: "critical" },
      { id: directives[1].id, drop: true },
    ]);
    l.stop();
    expect(await written(run.id, 3)).toEqual(["4:plan.approved"]);
    expect(l.announced()).toEqual(["4:plan.approved"]);
    const row = await getRun(h.db, run.id);
    expect(row?.status).toBe("queued");
    expect(row?.checkpoint).toMatchObject({ planApproved: true });
    expect(row?.jobId).toBeTruthy();
    const after = await createDbRunStore(h.db, run.id).listDirectives();
    expect(after.map((d) => [d.priority, d.status])).toEqual([
      ["critical", "pending"],
      ["normal", "skipped"],
    ]);
  });

  it("approvePlan with an edit of no pending directive rolls back: nothing written, nothing announced", async () => {
    const { run, directives } = await waitingRun("awaiting_plan_review");
    const l = listen(run.id);
    const error = await approvePlan(rt, run.id, OWNER, [
      { id: directives[0].id, topic: "A changed topic that would be written" },
      { id: "00000000-0000-4000-8000-00000000000f", drop: true },
    ]).catch((e: AppError) => e);
    l.stop();
    expect((error as AppError).code).toBe("validation_failed");
    expect(l.messages).toEqual([]);
    expect(await written(run.id, 3)).toEqual([]);
    const row = await getRun(h.db, run.id);
    expect(row?.status).toBe("awaiting_plan_review");
    expect(row?.lastEventSeq).toBe(3);
    expect(row?.jobId).toBeNull();
    expect((await createDbRunStore(h.db, run.id).listDirectives())[0].topic).toBe(directives[0].topic);
  });

  it("answerClarification: stores the answer, queues the run, announces the seq written", async () => {
    const { run } = await waitingRun("awaiting_clarification");
    const l = listen(run.id);
    await answerClarification(rt, run.id, OWNER, "Germany");
    l.stop();
    expect(await written(run.id, 3)).toEqual(["4:clarification.answered"]);
    expect(l.announced()).toEqual(["4:clarification.answered"]);
    const row = await getRun(h.db, run.id);
    expect(row?.status).toBe("queued");
    expect(row?.clarificationAnswer).toBe("Germany");
    await expect(answerClarification(rt, run.id, OWNER, "again")).rejects.toMatchObject({ code: "conflict" });
  });

  it("addUserDirective: the directive and its event in one transaction, announced with its seq", async () => {
    const { run } = await waitingRun("awaiting_plan_review");
    const l = listen(run.id);
    const { id } = await addUserDirective(rt, run.id, OWNER, {
      topic: "Noise levels of outdoor heat pump units at night",
      priority: "critical",
    });
    await expect(
      addUserDirective(rt, run.id, OWNER, {
        topic: "Noise levels of outdoor heat pump units at night",
        priority: "low",
      }),
    ).rejects.toMatchObject({ code: "conflict" });
    l.stop();
    expect(await written(run.id, 3)).toEqual(["4:directive.created"]);
    expect(l.announced()).toEqual(["4:directive.created"]);
    const [event] = await listEventsAfter(h.db, run.id, 3);
    expect(event.payload).toMatchObject({ directiveId: id, origin: "user", priority: "critical" });
    // The run view shows why the directive exists and what kind it is.
    const view = await runView(
      h.db,
      (await getRun(h.db, run.id)) as NonNullable<Awaited<ReturnType<typeof getRun>>>,
    );
    expect(view.directives.find((d) => d.id === id)).toMatchObject({
      type: "user",
      rationale: "Requested by the run's owner while it ran.",
    });
  });
});
