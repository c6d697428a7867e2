import { describe, expect, it } from "vitest";
import { mapWithConcurrency } from "./concurrency.ts";

const tick = (ms = 2) => new Promise((r) => setTimeout(r, ms));

describe("mapWithConcurrency", () => {
  it("keeps at most `limit` calls in flight, starts in order and returns results in input order", async () => {
    let inFlight = 0;
    let peak = 0;
    const started: number[] = [];
    const out = await mapWithConcurrency([5, 1, 4, 2, 3, 1], 2, async (ms, i) => {
      started.push(i);
      inFlight++;
      peak = Math.max(peak, inFlight);
      await tick(ms);
      inFlight--;
      return ms * 10;
    });
    expect(out).toEqual([50, 10, 40, 20, 30, 10]);
    expect(peak).toBe(2);
    expect(started).toEqual([0, 1, 2, 3, 4, 5]);
  });

  it("handles an empty list and a limit above the item count", async () => {
    expect(await mapWithConcurrency([], 3, async () => 1)).toEqual([]);
    expect(await mapWithConcurrency([1, 2], 10, async (x) => x + 1)).toEqual([2, 3]);
  });

  it("stops starting new calls after a failure, waits for the ones in flight, then throws the first error", async () => {
    const started: number[] = [];
    const finished: number[] = [];
    const run = mapWithConcurrency([0, 1, 2, 3, 4], 2, async (i) => {
      started.push(i);
      if (i === 0) throw new Error("boom");
      await tick(5);
      finished.push(i);
      return i;
    });
    await expect(run).rejects.toThrow("boom");
    expect(started).toEqual([0, 1]);
    expect(finished).toEqual([1]);
  });

  it("stops on abort with the signal's reason", async () => {
    const controller = new AbortController();
    const started: number[] = [];
    const run = mapWithConcurrency(
      [0, 1, 2, 3],
      1,
      async (i) => {
        started.push(i);
        if (i === 1) controller.abort(new Error("cancelled"));
        return i;
      },
      controller.signal,
    );
    await expect(run).rejects.toThrow("cancelled");
    expect(started).toEqual([0, 1]);
  });
});
