import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { DatabaseHandle } from "../../db/client.ts";
import { listEventsAfter } from "../../db/queries/events.ts";
import { createRun, getRun, setRunJobId, updateRunStatus } from "../../db/queries/runs.ts";
import { captureLogs } from "../../test/support/capture-logs.ts";
import { openDatabaseWithBus } from "../../test/support/run-bus-db.ts";
import { backdateRun, freeEventSeq, occupyEventSeq } from "../../test/support/run-rows.ts";
import type { RunBus } from "./bus.ts";
import { enqueueRun, getBoss, RUN_QUEUE } from "./queue.ts";
import { sweepAbandonedRuns } from "./sweeper.ts";

let h: DatabaseHandle;
let bus: RunBus;
beforeAll(async () => {
  ({ h, bus } = await openDatabaseWithBus());
}, 60_000);
afterAll(async () => {
  await (await getBoss(h)).stop({ graceful: false }).catch(() => {});
  await h.close();
});

async function runWithJob(question: string) {
  const run = await createRun(h.db, { ownerId: "o", question, settings: {} });
  const boss = await getBoss(h);
  const jobId = await h.db.transaction((tx) => enqueueRun(boss, tx as never, run.id));
  await updateRunStatus(h.db, run.id, { status: "running" });
  await backdateRun(h.db, run.id, 5 * 60_000);
  return { run, jobId, boss };
}

describe("sweepAbandonedRuns", () => {
  it("ends a running run whose job was settled or is gone, once, with a readable reason", async () => {
    const cancelled = await runWithJob("job cancelled under it");
    await cancelled.boss.cancel(RUN_QUEUE, cancelled.jobId);
    const gone = await runWithJob("job missing");
    await setRunJobId(h.db, gone.run.id, "00000000-0000-4000-8000-000000000001");
    const alive = await runWithJob("job still queued");

    const announced: string[] = [];
    const stop = bus.subscribe(cancelled.run.id, (m) => {
      if (m.kind === "event") announced.push(`${m.seq}:${m.type}`);
    });
    const ended = await sweepAbandonedRuns(h.db, cancelled.boss, bus);
    expect(ended.sort()).toEqual([cancelled.run.id, gone.run.id].sort());
    const row = await getRun(h.db, cancelled.run.id);
    expect(row?.status).toBe("failed");
    expect(row?.error).toMatch(/ended as "cancelled"/);
    expect(row?.errorBecause).toEqual({ code: "job_given_up", values: { state: "cancelled", attempts: 1 } });
    expect((await getRun(h.db, gone.run.id))?.error).toMatch(/no longer exists/);
    expect((await getRun(h.db, gone.run.id))?.errorBecause).toEqual({ code: "job_missing" });
    expect((await getRun(h.db, alive.run.id))?.status).toBe("running");
    const events = await listEventsAfter(h.db, cancelled.run.id, 0);
    expect(events.at(-1)?.type).toBe("run.failed");
    // Announced after the status and the event committed together, with the seq it was written with.
    expect(announced).toEqual([`${events.at(-1)?.seq}:run.failed`]);
    expect(events.at(-1)?.payload).toMatchObject({
      reason: row?.error,
      because: row?.errorBecause,
      partial: false,
    });

    // A second sweep (another worker) changes nothing and emits nothing.
    expect(await sweepAbandonedRuns(h.db, cancelled.boss, bus)).toEqual([]);
    expect((await listEventsAfter(h.db, cancelled.run.id, 0)).length).toBe(events.length);
    expect(announced).toHaveLength(1);
    stop();
  });

  it("ends a run with its run.failed or not at all, and one run that cannot be ended does not stop the sweep", async () => {
    const broken = await runWithJob("its end cannot be written yet");
    await broken.boss.cancel(RUN_QUEUE, broken.jobId);
    const next = (await getRun(h.db, broken.run.id))?.lastEventSeq ?? 0;
    await occupyEventSeq(h.db, broken.run.id, next + 1);
    const other = await runWithJob("an ordinary abandoned run");
    await other.boss.cancel(RUN_QUEUE, other.jobId);

    const logs = captureLogs();
    const ended = await sweepAbandonedRuns(h.db, broken.boss, bus);
    logs.restore();
    expect(logs.lines).toContainEqual(
      expect.objectContaining({
        level: 50,
        runId: broken.run.id,
        err: expect.objectContaining({ message: expect.any(String) }),
      }),
    );
    expect(ended).toEqual([other.run.id]);
    expect(await getRun(h.db, broken.run.id)).toMatchObject({
      status: "running",
      error: null,
      finishedAt: null,
    });
    expect((await getRun(h.db, other.run.id))?.status).toBe("failed");

    // Once the write can succeed, the next sweep ends it, run.failed last.
    await freeEventSeq(h.db, broken.run.id, next + 1);
    expect(await sweepAbandonedRuns(h.db, broken.boss, bus)).toEqual([broken.run.id]);
    expect((await getRun(h.db, broken.run.id))?.status).toBe("failed");
    expect((await listEventsAfter(h.db, broken.run.id, 0)).at(-1)?.type).toBe("run.failed");
  });

  it("leaves recently touched runs alone", async () => {
    const fresh = await runWithJob("fresh");
    await backdateRun(h.db, fresh.run.id, 0);
    await fresh.boss.cancel(RUN_QUEUE, fresh.jobId);
    expect(await sweepAbandonedRuns(h.db, fresh.boss, bus)).toEqual([]);
  });
});
