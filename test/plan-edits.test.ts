// Plan review edits that would give two directives of a run the same (normalised) topic are
// refused with a 409 naming the topic, and change nothing; edits whose end state is unique (a swap
// of two topics) are applied whatever their order.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { DatabaseHandle } from "../db/client.ts";
import { appendEvent, listEventsAfter } from "../db/queries/events.ts";
import { createRun, getRun, updateRunStatus } from "../db/queries/runs.ts";
import { createDbRunStore } from "../db/research-store.ts";
import { AppError } from "../lib/errors.ts";
import type { Runtime } from "../lib/jobs/runtime.ts";
import { approvePlan } from "../lib/server/runs/approve-plan.ts";
import { closeActionRuntime, openActionRuntime } from "./support/action-runtime.ts";

let h: DatabaseHandle;
let rt: Runtime;
beforeAll(async () => {
  ({ h, rt } = await openActionRuntime());
}, 60_000);
afterAll(() => closeActionRuntime(h));

const OWNER = "owner";
const COLD = "Efficiency of air-source heat pumps in cold climates";
const COST = "Installation cost of ground-source heat pumps";
const NOISE = "Noise of outdoor heat pump units at night";

/** A run waiting for plan review with three proposed directives, the last one already dropped. */
async function reviewRun() {
  const run = await createRun(h.db, { ownerId: OWNER, question: "Heat pumps?", settings: {} });
  await appendEvent(h.db, run.id, { type: "run.created", question: run.question, settings: {} });
  const store = createDbRunStore(h.db, run.id);
  const { created } = await store.addDirectives([
    { round: 0, topic: COLD },
    { round: 0, topic: COST },
    { round: 0, topic: NOISE },
  ]);
  await store.setDirectiveStatus(created[2].id, "skipped");
  await updateRunStatus(h.db, run.id, { status: "awaiting_plan_review", phase: "supervision" });
  await appendEvent(h.db, run.id, { type: "plan.awaiting_review", directives: 2 });
  const [cold, cost, noise] = created;
  return { run, cold, cost, noise };
}

async function refusal(p: Promise<unknown>): Promise<AppError> {
  const e = await p.then(
    () => undefined,
    (x: unknown) => x,
  );
  expect(e).toBeInstanceOf(AppError);
  return e as AppError;
}

/** Nothing changed: still waiting, no event, every topic and status as proposed. */
async function expectUnchanged(runId: string) {
  const row = await getRun(h.db, runId);
  expect(row?.status).toBe("awaiting_plan_review");
  expect(row?.jobId).toBeNull();
  expect(await listEventsAfter(h.db, runId, 2)).toEqual([]);
  const now = await createDbRunStore(h.db, runId).listDirectives();
  expect(now.map((d) => [d.topic, d.priority, d.status])).toEqual([
    [COLD, "normal", "pending"],
    [COST, "normal", "pending"],
    [NOISE, "normal", "skipped"],
  ]);
}

describe("plan review edits keep directive topics unique", () => {
  it("refuses an edit that repeats another directive's topic (up to case and punctuation) with 409", async () => {
    const { run, cold, cost } = await reviewRun();
    const e = await refusal(
      approvePlan(rt, run.id, OWNER, [
        { id: cold.id, priority: "critical" },
        { id: cost.id, topic: "efficiency of air source heat pumps, in cold climates!" },
      ]),
    );
    expect(e.code).toBe("conflict");
    expect(e.status).toBe(409);
    expect(e.message).toContain("efficiency of air source heat pumps, in cold climates!");
    expect(e.details).toMatchObject({ directiveIds: expect.arrayContaining([cold.id, cost.id]) });
    await expectUnchanged(run.id);
  });

  it("refuses two edits that give two directives the same new topic", async () => {
    const { run, cold, cost } = await reviewRun();
    const topic = "Heat pump subsidies in Germany";
    const e = await refusal(
      approvePlan(rt, run.id, OWNER, [
        { id: cold.id, topic },
        { id: cost.id, topic: `${topic.toUpperCase()}.` },
      ]),
    );
    expect(e.code).toBe("conflict");
    expect(e.message).toContain(topic);
    await expectUnchanged(run.id);
  });

  it("refuses an edit that takes the topic of a dropped directive (it stays in the run)", async () => {
    const { run, cold } = await reviewRun();
    const e = await refusal(approvePlan(rt, run.id, OWNER, [{ id: cold.id, topic: NOISE }]));
    expect(e.code).toBe("conflict");
    expect(e.message).toContain(NOISE);
    await expectUnchanged(run.id);
  });

  it("applies edits whose end state is unique, even a swap of two topics", async () => {
    const { run, cold, cost } = await reviewRun();
    await approvePlan(rt, run.id, OWNER, [
      { id: cold.id, topic: COST },
      { id: cost.id, topic: COLD, priority: "high" },
    ]);
    expect((await getRun(h.db, run.id))?.status).toBe("queued");
    const now = await createDbRunStore(h.db, run.id).listDirectives();
    expect(now.map((d) => [d.id, d.topic, d.priority])).toEqual([
      [cold.id, COST, "normal"],
      [cost.id, COLD, "high"],
      [expect.any(String), NOISE, "normal"],
    ]);
    // The approval carries the edits as stored, titles included: a page applies them without a read.
    const [approved] = (await listEventsAfter(h.db, run.id, 0)).filter((e) => e.type === "plan.approved");
    const titleOf = new Map(now.map((d) => [d.id, d.title]));
    expect(approved.payload).toMatchObject({
      edited: true,
      changes: [
        { directiveId: cold.id, topic: COST, title: titleOf.get(cold.id) },
        { directiveId: cost.id, topic: COLD, title: titleOf.get(cost.id), priority: "high" },
      ],
    });
  });

  it("adds the person's new directives with the approval, in the same transaction", async () => {
    const { run, cost } = await reviewRun();
    const added = "Grid carbon intensity and heat pump emissions in winter";
    await approvePlan(rt, run.id, OWNER, [{ id: cost.id, drop: true }], [{ topic: added, priority: "high" }]);
    expect((await getRun(h.db, run.id))?.status).toBe("queued");
    const now = await createDbRunStore(h.db, run.id).listDirectives();
    expect(now.find((d) => d.topic === added)).toMatchObject({
      origin: "user",
      priority: "high",
      status: "pending",
    });
    const events = (await listEventsAfter(h.db, run.id, 2)).map((e) => e.type);
    expect(events).toEqual(["directive.created", "plan.approved"]);
    const [approved] = (await listEventsAfter(h.db, run.id, 2)).filter((e) => e.type === "plan.approved");
    expect(approved.payload).toMatchObject({ changes: [{ directiveId: cost.id, dropped: true }] });
  });

  it("refuses an addition that repeats a proposed directive, changing nothing (edits included)", async () => {
    const { run, cost } = await reviewRun();
    const e = await refusal(
      approvePlan(
        rt,
        run.id,
        OWNER,
        [{ id: cost.id, priority: "high" }],
        [{ topic: `${COLD}.`, priority: "low" }],
      ),
    );
    expect(e.code).toBe("conflict");
    await expectUnchanged(run.id);
  });
});
