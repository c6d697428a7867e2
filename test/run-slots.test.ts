// The per-user run cap on both databases: a user's runs beyond RUNS_MAX_ACTIVE_PER_USER wait in
// `queued` without a job, with their place in the user's queue; beyond RUNS_MAX_QUEUED_PER_USER a
// new run is refused 429; when a run ends (or is cancelled, or a sweep catches up) the next waiting
// run gets its job. Concurrent requests and several processes never admit more than the cap.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type DatabaseHandle, openDatabase } from "../db/client.ts";
import { listEventsAfter } from "../db/queries/events.ts";
import { askRunClarification, createRun, getRun, updateRunStatus } from "../db/queries/runs.ts";
import type { Run } from "../db/schema.ts";
import { AppError } from "../lib/errors.ts";
import { createRunBus } from "../lib/jobs/bus.ts";
import { getBoss, RUN_QUEUE, stopBoss } from "../lib/jobs/queue.ts";
import { promoteAfterRun, promoteAllWaitingRuns, promoteWaitingRuns } from "../lib/jobs/run-slots.ts";
import type { Runtime } from "../lib/jobs/runtime.ts";
import { cancelRun } from "../lib/server/runs/cancel.ts";
import { answerClarification } from "../lib/server/runs/clarify.ts";
import { createAndEnqueueRun } from "../lib/server/runs/start.ts";
import { runView } from "../lib/server/runs/view-model.ts";
import { testDatabases } from "./databases.ts";

// Two running and two waiting per user (also read by the worker-side promotion, from process.env).
process.env.RUNS_MAX_ACTIVE_PER_USER = "2";
process.env.RUNS_MAX_QUEUED_PER_USER = "2";

for (const database of testDatabases()) {
  describe(`run slots on ${database.name}`, () => {
    let h: DatabaseHandle;
    let rt: Runtime;
    beforeAll(async () => {
      h = await database.open();
      rt = { handle: h, bus: await createRunBus(h) };
      await getBoss(h);
    }, 60_000);
    afterAll(async () => {
      await stopBoss();
      await rt.bus.close();
      await h.close();
    });

    const create = (ownerId: string, question = "Are heat pumps efficient?") =>
      createAndEnqueueRun(rt, { ownerId, question, settings: {} });
    const row = async (id: string) => (await getRun(h.db, id)) as Run;
    const position = async (id: string) => (await runView(h.db, await row(id))).queuePosition;
    async function hasJob(id: string): Promise<boolean> {
      const jobId = (await row(id)).jobId;
      if (!jobId) return false;
      const job = await (await getBoss(h)).getJobById(RUN_QUEUE, jobId);
      return job?.data !== undefined && (job.data as { runId: string }).runId === id;
    }

    it("runs the first two at once, queues the next two in order, and refuses a fifth with 429", async () => {
      const owner = "slots-a";
      const [r1, r2, r3, r4] = [
        await create(owner),
        await create(owner),
        await create(owner),
        await create(owner),
      ];
      expect([r1.queuePosition, r2.queuePosition, r3.queuePosition, r4.queuePosition]).toEqual([
        null,
        null,
        1,
        2,
      ]);
      expect([await hasJob(r1.id), await hasJob(r2.id), await hasJob(r3.id), await hasJob(r4.id)]).toEqual([
        true,
        true,
        false,
        false,
      ]);
      expect([r3.status, r4.status]).toEqual(["queued", "queued"]);
      expect([await position(r1.id), await position(r3.id), await position(r4.id)]).toEqual([null, 1, 2]);

      const refused = await create(owner).catch((e: unknown) => e);
      expect(refused).toBeInstanceOf(AppError);
      expect(refused).toMatchObject({ code: "rate_limited", status: 429 });
      expect((refused as AppError).message).toMatch(/2 running and 2 waiting/);
      // Another user is not affected.
      expect((await create("slots-a-neighbour")).queuePosition).toBeNull();
    });

    it("starts the next waiting run when a running one ends, or a queued one is cancelled", async () => {
      const owner = "slots-b";
      const [r1, r2, r3, r4] = [
        await create(owner),
        await create(owner),
        await create(owner),
        await create(owner),
      ];
      await updateRunStatus(h.db, r1.id, { status: "running" });
      await updateRunStatus(h.db, r1.id, { status: "completed", phase: "done" });
      expect(await promoteAfterRun(h.db, await getBoss(h), r1.id)).toEqual([r3.id]);
      expect(await hasJob(r3.id)).toBe(true);
      expect(await position(r3.id)).toBeNull();
      expect(await position(r4.id)).toBe(1);
      // Each run's page learns it from an event: r3 has a slot, r4 is next.
      const positions = async (id: string) =>
        (await listEventsAfter(h.db, id))
          .filter((e) => e.type === "run.queue_position")
          .map((e) => e.payload.position);
      expect(await positions(r3.id)).toEqual([null]);
      expect(await positions(r4.id)).toEqual([1]);

      // r2 is queued with its job (it holds a slot): cancelling it hands the slot on.
      expect(await cancelRun(rt, r2.id, owner)).toEqual({ status: "cancelled" });
      expect(await hasJob(r4.id)).toBe(true);
      expect(await position(r4.id)).toBeNull();
      // A waiting run that is cancelled simply leaves the queue; the ones behind it move up.
      const [r5, r6] = [await create(owner), await create(owner)];
      expect([r5.queuePosition, r6.queuePosition]).toEqual([1, 2]);
      expect(await cancelRun(rt, r5.id, owner)).toEqual({ status: "cancelled" });
      expect(await position(r6.id)).toBe(1);
      expect(await hasJob(r6.id)).toBe(false);
    });

    it("an answered clarification waits for a slot like a new run; a person's wait holds none", async () => {
      const owner = "slots-c";
      const asking = await createRun(h.db, { ownerId: owner, question: "Which heat pump?", settings: {} });
      await askRunClarification(h.db, asking.id, "For which climate?");
      const [r1, r2] = [await create(owner), await create(owner)];
      expect([r1.queuePosition, r2.queuePosition]).toEqual([null, null]);
      await answerClarification(rt, asking.id, owner, "A cold one.");
      const answered = await row(asking.id);
      expect(answered).toMatchObject({ status: "queued", clarificationAnswer: "A cold one.", jobId: null });
      expect(await position(asking.id)).toBe(1);
      await updateRunStatus(h.db, r2.id, { status: "failed", error: "model unavailable" });
      await promoteAfterRun(h.db, await getBoss(h), r2.id);
      expect(await hasJob(asking.id)).toBe(true);
    });

    it("the periodic catch-up admits runs whose predecessor ended without promoting them", async () => {
      const owner = "slots-d";
      const [r1, , r3] = [await create(owner), await create(owner), await create(owner)];
      // The worker died between the end of r1 and the promotion: the slot is free, r3 still waits.
      await updateRunStatus(h.db, r1.id, { status: "completed", phase: "done" });
      expect(await position(r3.id)).toBe(1);
      expect(await promoteAllWaitingRuns(h.db, await getBoss(h))).toContain(r3.id);
      expect(await hasJob(r3.id)).toBe(true);
    });

    it("concurrent creations and promotions from two connection pools never exceed the cap", async () => {
      // On PostgreSQL a second pool stands for another web or worker process.
      const other = h.kind === "postgres" ? await openDatabase({ url: h.url, poolSize: 3 }) : h;
      const rt2: Runtime = { handle: other, bus: rt.bus };
      const env = { RUNS_MAX_ACTIVE_PER_USER: "2", RUNS_MAX_QUEUED_PER_USER: "10" };
      const owner = "slots-e";
      try {
        const runs = await Promise.all(
          Array.from({ length: 6 }, (_, i) =>
            createAndEnqueueRun(
              i % 2 ? rt2 : rt,
              { ownerId: owner, question: `Question ${i}?`, settings: {} },
              env,
            ),
          ),
        );
        const admitted = runs.filter((r) => r.queuePosition === null);
        expect(admitted).toHaveLength(2);
        expect(runs.map((r) => r.queuePosition ?? 0).sort()).toEqual([0, 0, 1, 2, 3, 4]);

        for (const r of admitted) await updateRunStatus(h.db, r.id, { status: "completed", phase: "done" });
        const boss = await getBoss(h);
        const limits = { maxActive: 2, maxQueued: 10 };
        const promoted = await Promise.all([
          promoteWaitingRuns(h.db, boss, owner, limits),
          promoteWaitingRuns(other.db, boss, owner, limits),
          promoteWaitingRuns(h.db, boss, owner, limits),
        ]);
        expect(promoted.flat()).toHaveLength(2);
        const waiting = runs
          .filter((r) => r.queuePosition !== null)
          .sort((a, b) => a.queuePosition! - b.queuePosition!);
        // First come, first served: the two that waited longest got the slots.
        expect(promoted.flat().sort()).toEqual([waiting[0].id, waiting[1].id].sort());
        expect(await position(waiting[2].id)).toBe(1);
      } finally {
        if (other !== h) await other.close();
      }
    });
  });
}
