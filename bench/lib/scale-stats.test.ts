import { describe, expect, it } from "vitest";
import { percentile } from "./figure.ts";
import { batchTimes } from "./run-batch.ts";
import {
  deliveryDelays,
  gaplessProblem,
  makespan,
  mismatchedViewer,
  slowestEvents,
  throughput,
} from "./scale-stats.ts";

describe("gaplessProblem", () => {
  it("accepts 1..n in order", () => {
    expect(gaplessProblem([1, 2, 3])).toBeUndefined();
  });
  it("names a gap, a repeat, a late start and an empty stream", () => {
    expect(gaplessProblem([1, 2, 4])).toBe("expected seq 3 at position 2, got 4");
    expect(gaplessProblem([1, 2, 2, 3])).toBe("expected seq 3 at position 2, got 2");
    expect(gaplessProblem([2, 3])).toBe("expected seq 1 at position 0, got 2");
    expect(gaplessProblem([])).toBe("no events");
  });
});

describe("mismatchedViewer", () => {
  it("is undefined when every viewer got the same seqs", () => {
    expect(
      mismatchedViewer([
        [1, 2],
        [1, 2],
        [1, 2],
      ]),
    ).toBeUndefined();
  });
  it("names the first viewer that differs", () => {
    expect(
      mismatchedViewer([
        [1, 2, 3],
        [1, 2, 3],
        [1, 2],
      ]),
    ).toBe("viewer 2 got 2 events, viewer 0 got 3");
  });
});

describe("deliveryDelays", () => {
  const d = (at: number, receivedAt: number) => ({ seq: 1, type: "x", at, receivedAt });
  it("is arrival minus commit, only for events committed since the cut-off", () => {
    const delays = deliveryDelays([d(100, 150), d(200, 207), d(300, 340), d(400, 401)], 200);
    expect(delays).toEqual([7, 40, 1]);
    expect(percentile(delays, 95)).toBe(40);
  });
});

describe("slowestEvents", () => {
  it("gives each event's delay to its first and last viewer, slowest last viewer first, after `since`", () => {
    const d = (seq: number, at: number, receivedAt: number) => ({ seq, type: `t${seq}`, at, receivedAt });
    const viewers = [
      [d(1, 0, 50), d(2, 100, 104), d(3, 200, 230)],
      [d(1, 0, 60), d(2, 100, 140), d(3, 200, 205)],
    ];
    expect(slowestEvents(viewers, 100)).toEqual([
      { seq: 2, type: "t2", first: 4, last: 40 },
      { seq: 3, type: "t3", first: 5, last: 30 },
    ]);
    expect(slowestEvents(viewers, 0, 1)).toEqual([{ seq: 1, type: "t1", first: 50, last: 60 }]);
  });
});

describe("makespan and throughput", () => {
  it("spans the first start to the last end", () => {
    expect(makespan([1000, 1010, 1005], [5000, 6000, 5500])).toBe(5000);
    expect(makespan([], [])).toBeNaN();
  });
  it("counts runs per second", () => {
    expect(throughput(20, 10_000)).toBe(2);
    // twice the runs in the same time is a ratio of 2
    expect(throughput(20, 5_000) / throughput(20, 10_000)).toBe(2);
    expect(throughput(5, 0)).toBeNaN();
  });
});

describe("batchTimes", () => {
  it("splits each run into its wait for a worker and its own duration, sorted", () => {
    const run = (postedAt: number, pickedAt: number, endedAt: number) => ({
      id: "r",
      postedAt,
      pickedAt,
      endedAt,
      terminal: "run.completed",
      events: 3,
    });
    expect(batchTimes([run(0, 5000, 9000), run(0, 100, 4100)])).toEqual({
      waitMs: [100, 5000],
      runMs: [4000, 4000],
    });
  });
});
