/** The question worker beside the run worker: same process, same queue database, its own queue. */
import type { PgBoss } from "pg-boss";
import type { DatabaseHandle } from "../../../db/client.ts";
import type { RunBus } from "../bus.ts";
import { answerQuestionJob } from "./answer-job.ts";
import { ensureQuestionQueue, QUESTION_QUEUE, type QuestionJobData } from "./queue.ts";

export async function startQuestionWorker(
  handle: DatabaseHandle,
  bus: RunBus,
  boss: PgBoss,
  opts: { signal: AbortSignal; pollSeconds?: number },
): Promise<{ stop(): Promise<void> }> {
  await ensureQuestionQueue(boss);
  await boss.work<QuestionJobData>(
    QUESTION_QUEUE,
    {
      localConcurrency: 2,
      pollingIntervalSeconds: opts.pollSeconds ?? 1,
      notifyPollingIntervalSeconds: Math.max(opts.pollSeconds ?? 1, 5),
      heartbeatRefreshSeconds: 2,
    },
    async (jobs) => {
      for (const job of jobs) {
        await answerQuestionJob({
          handle,
          bus,
          questionId: job.data.questionId,
          signal: AbortSignal.any([opts.signal, job.signal]),
        });
      }
    },
  );
  return { stop: () => boss.offWork(QUESTION_QUEUE, { wait: true }).catch(() => {}) };
}
