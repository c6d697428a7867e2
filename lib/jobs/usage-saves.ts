/**
 * Coalesced saves of the run's usage. Every model call ends with a new usage snapshot, and when five
 * researchers finish their calls together, five writes of the same row would queue behind each other
 * on the run's critical path. Here one save is in flight at a time; snapshots that arrive meanwhile
 * replace each other, and the latest is written once the save in flight is done. With `gatherMs`,
 * a save waits that long before writing, so snapshots that arrive a few ms apart share it too.
 */
export interface CoalescedSaves<T> {
  /** Saves `value` now, or after the save in flight (only the latest value waiting is kept). */
  request(value: T): void;
  /** No more saves: the one waiting is dropped, the one in flight is awaited (the caller writes the last). */
  close(): Promise<void>;
}

export function coalescedSaves<T>(
  save: (value: T) => Promise<void>,
  opts: { gatherMs?: number } = {},
): CoalescedSaves<T> {
  const gatherMs = opts.gatherMs ?? 0;
  let inflight: Promise<void> | null = null;
  let waiting: { value: T } | null = null;
  let closed = false;
  let stopGathering = () => {};

  const drain = async (first: T) => {
    let next: { value: T } | null = { value: first };
    if (gatherMs > 0) {
      // Calls that end a few ms apart (researchers started together) join the first one's save.
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, gatherMs);
        // Closing ends the wait at once: nothing is written after it anyway.
        stopGathering = () => {
          clearTimeout(timer);
          resolve();
        };
      });
      stopGathering = () => {};
      next = waiting ?? next;
      waiting = null;
    }
    while (next && !closed) {
      // A failed save is not retried: the next snapshot (or the run's final save) covers it.
      await save(next.value).catch(() => {});
      next = waiting;
      waiting = null;
    }
    inflight = null;
  };

  return {
    request(value) {
      if (closed) return;
      if (inflight) waiting = { value };
      else inflight = drain(value);
    },
    async close() {
      closed = true;
      waiting = null;
      stopGathering();
      await inflight;
    },
  };
}
