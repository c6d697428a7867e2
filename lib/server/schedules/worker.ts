/**
 * The schedule worker: takes SCHEDULE_QUEUE jobs (one per firing of a report's schedule) and starts
 * the new version. It runs in the web server (bootstrap.ts), beside pg-boss's clock, because
 * starting a version is what a request does (limits, slots, the queue), not research: the research
 * itself is a run job like any other, taken by whichever worker is free.
 */
import { getBoss } from "../../jobs/queue.ts";
import type { Runtime } from "../../jobs/runtime.ts";
import { ensureScheduleQueue, SCHEDULE_QUEUE, type ScheduleJobData } from "../../jobs/schedules/queue.ts";
import { log } from "../../telemetry/log.ts";
import { fireScheduledRefresh } from "./fire.ts";

export async function startScheduleWorker(
  rt: Runtime,
  opts: { pollSeconds?: number } = {},
): Promise<{ stop(): Promise<void> }> {
  const boss = await getBoss(rt.handle);
  await ensureScheduleQueue(boss);
  await boss.work<ScheduleJobData>(
    SCHEDULE_QUEUE,
    { pollingIntervalSeconds: opts.pollSeconds ?? 30 },
    async (jobs) => {
      for (const job of jobs) {
        const outcome = await fireScheduledRefresh(rt, job.data.reportId);
        log("schedules").info({ reportId: job.data.reportId, ...outcome }, "scheduled refresh");
      }
    },
  );
  return {
    async stop() {
      await boss.offWork(SCHEDULE_QUEUE, { wait: true }).catch(() => {});
    },
  };
}
