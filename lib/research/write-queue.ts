/**
 * Writes run one after another, in the order added, while their caller goes on. The engine has
 * two of them: a researcher's events and rows (phases/directive/background-events.ts) and the
 * supervisor's bookkeeping behind its next model call (writes-behind.ts). They differ only in what
 * a failure does to the writes after it, which each chooses here.
 */
export interface WriteQueue {
  /** Runs `write` after every write added before it; returns at once. */
  add(write: () => Promise<unknown>): void;
  /** Whether a write is queued or running. */
  busy(): boolean;
  /** Waits until nothing is queued, including writes added while it waits. */
  drain(): Promise<void>;
  /** The first write that failed, if any. */
  failure(): { error: unknown } | undefined;
  /** Forgets the failure (it was reported); later writes run again. */
  clearFailure(): void;
}

export function createWriteQueue(opts: {
  /** After a failure, skip the writes added after it (the store stays a state the run passed through). */
  stopAtFailure: boolean;
  /** Waited for before the first write from idle. */
  start?: () => Promise<void>;
}): WriteQueue {
  let tail: Promise<void> | undefined;
  let failed: { error: unknown } | undefined;
  return {
    add(write) {
      const link = (tail ?? opts.start?.() ?? Promise.resolve())
        .then(async () => {
          if (!(failed && opts.stopAtFailure)) await write();
        })
        .catch((error: unknown) => {
          failed ??= { error };
        });
      tail = link;
      void link.then(() => {
        if (tail === link) tail = undefined;
      });
    },
    busy: () => tail !== undefined,
    async drain() {
      while (tail) await tail;
    },
    failure: () => failed,
    clearFailure() {
      failed = undefined;
    },
  };
}
