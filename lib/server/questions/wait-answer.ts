/**
 * Waits for a question's answer (for callers that cannot follow the event stream: the MCP tool):
 * woken by the run's bus when a question event is announced, polling as the backstop, until the
 * question has ended, `seconds` have passed or `signal` aborts. Returns the thread's row for it.
 */
import type { Runtime } from "../../jobs/runtime.ts";
import { listQuestions } from "./list-questions.ts";
import type { QuestionView } from "./schemas.ts";

const POLL_MS = 1000;
const ended = new Set(["answered", "not_in_sources", "failed"]);

export async function waitForAnswer(
  rt: Runtime,
  runId: string,
  ownerId: string,
  questionId: string,
  opts: { seconds: number; signal: AbortSignal },
): Promise<QuestionView | undefined> {
  const deadline = Date.now() + opts.seconds * 1000;
  let wake = () => {};
  const stop = rt.bus.subscribe(runId, (m) => {
    if (m.kind === "event" && m.type.startsWith("question.")) wake();
  });
  try {
    for (;;) {
      const q = (await listQuestions(rt, runId, ownerId)).find((x) => x.id === questionId);
      if (!q || ended.has(q.status) || Date.now() >= deadline || opts.signal.aborted) return q;
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, Math.min(POLL_MS, Math.max(0, deadline - Date.now())));
        wake = () => {
          clearTimeout(timer);
          resolve();
        };
      });
    }
  } finally {
    stop();
  }
}
