/**
 * Starts runs and follows each with one SSE viewer until its terminal event: what the concurrent-run
 * and scale-out figures measure (wall times from the POST to the terminal event's commit) and check
 * (every run completed, every run's events gapless).
 */

import { gaplessProblem } from "./scale-stats.ts";
import { openViewer } from "./sse-viewer.ts";
import type { BenchWorld } from "./world.ts";

export interface FinishedRun {
  id: string;
  postedAt: number;
  /** The commit time of the first event after run.created (the POST's): a worker has taken the run. */
  pickedAt: number;
  /** The terminal event's commit time. */
  endedAt: number;
  terminal: string;
  events: number;
}

export async function runAll(
  world: BenchWorld,
  count: number,
  settings: Record<string, unknown>,
  timeoutMs = 300_000,
): Promise<FinishedRun[]> {
  const started = await Promise.all(
    Array.from({ length: count }, (_, i) =>
      world.startRun(`Heat pumps vs gas boilers, run ${i + 1}`, settings),
    ),
  );
  return Promise.all(
    started.map(async ({ id, postedAt }) => {
      const { deliveries, closed } = await openViewer(world.url, id, world.cookie, timeoutMs).done;
      const last = deliveries.at(-1);
      if (!closed || !last) throw new Error(`run ${id}: stream did not end (${deliveries.length} events)`);
      const gap = gaplessProblem(deliveries.map((d) => d.seq));
      if (gap) throw new Error(`run ${id}: events not gapless: ${gap}`);
      return {
        id,
        postedAt,
        pickedAt: deliveries[1]?.at ?? last.at,
        endedAt: last.at,
        terminal: last.type,
        events: deliveries.length,
      };
    }),
  );
}

/** Where a batch's time went: how long runs waited for a worker and how long they then took (ms). */
export function batchTimes(runs: readonly FinishedRun[]) {
  const waits = runs.map((r) => r.pickedAt - r.postedAt).sort((a, b) => a - b);
  const durations = runs.map((r) => r.endedAt - r.pickedAt).sort((a, b) => a - b);
  return { waitMs: waits, runMs: durations };
}

/** Throws unless every run ended with run.completed. */
export function assertAllCompleted(runs: readonly FinishedRun[]): void {
  const bad = runs.filter((r) => r.terminal !== "run.completed");
  if (bad.length)
    throw new Error(
      `${bad.length} run(s) did not complete: ${bad.map((r) => `${r.id} ${r.terminal}`).join(", ")}`,
    );
}
