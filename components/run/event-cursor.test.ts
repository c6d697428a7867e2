import { describe, expect, it } from "vitest";
import { advanceCursor, afterRead, type EventCursor } from "./event-cursor";

/** The reads a page makes for events arriving with these ids, its view read at `view`. */
function readsFor(ids: number[], view: number): { reads: number; applied: number[] } {
  let cursor: EventCursor = { last: 0, view };
  let reads = 0;
  const applied: number[] = [];
  for (const id of ids) {
    const step = advanceCursor(cursor, id);
    cursor = step.cursor;
    if (step.fresh) applied.push(id);
    if (step.gap) {
      reads++;
      // The read brings the view up to the event that revealed the gap.
      cursor = afterRead(cursor, id);
    }
  }
  return { reads, applied };
}

describe("the run page's place in the events", () => {
  it("reads nothing for events in order: the history replayed at load, then live ones", () => {
    expect(readsFor([1, 2, 3, 4, 5, 6, 7], 4)).toEqual({ reads: 0, applied: [5, 6, 7] });
  });

  it("reads nothing for a reconnect whose replay starts right after the last event received", () => {
    // Connection one delivered 1..6; the reconnect (Last-Event-ID 6) replays from 7.
    expect(readsFor([1, 2, 3, 4, 5, 6, 7, 8], 2).reads).toBe(0);
  });

  it("reads exactly once when an event's id skips ahead, not again for the ones after it", () => {
    expect(readsFor([1, 2, 3, 7, 8, 9], 2)).toEqual({ reads: 1, applied: [3, 7, 8, 9] });
  });

  it("reads nothing for a hole among events the view already holds", () => {
    expect(readsFor([1, 4, 5, 6], 5).reads).toBe(0);
  });

  it("ignores an event received twice (a replay overlapping the live stream)", () => {
    const first = advanceCursor({ last: 0, view: 0 }, 1).cursor;
    const again = advanceCursor(advanceCursor(first, 2).cursor, 2);
    expect(again.gap).toBe(false);
    expect(again.cursor.last).toBe(2);
  });
});
