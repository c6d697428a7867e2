/**
 * A researcher's writes, done beside or behind its work instead of in front of it: awaited, each
 * step's event (a think, a search starting, a page read) and rows (a search's hits, a page read)
 * would stand before the researcher's next model or web call, and with five researchers stepping
 * together the slowest one's next call would wait for all their writes.
 *
 * - An emit returns at once; the events are written in the order emitted, one after another, by the
 *   sink given (which still writes each before announcing it).
 * - `store` starts a step's rows at once and puts the events they produce in their place among the
 *   researcher's events; until the rows are written, their URLs are `pending` (a read of one waits).
 * - `flush` waits for all of it and reports the first failure, so a researcher's rows and events
 *   are all stored before its directive's end is.
 */
import { type EventSink, emitAll, type StoredEvent } from "../../events.ts";
import { createWriteQueue } from "../../write-queue.ts";

export interface BackgroundEvents extends EventSink {
  /**
   * Starts `write` (a step's rows) now and returns at once; the events it resolves to are written
   * where this call stands in the researcher's order of events.
   */
  store(urls: readonly string[], write: () => Promise<readonly StoredEvent[]>): void;
  /** Resolves once no write started by `store` for `url` is still running (never rejects). */
  pending(url: string): Promise<void>;
  /** Waits until every event emitted and every write stored so far is done; throws the first that failed. */
  flush(): Promise<void>;
  /** The first write that has failed so far, if one has (flush throws it too). */
  failure(): unknown;
}

export function inBackground(sink: EventSink): BackgroundEvents {
  // A failed write fails the directive at flush; the researcher's other events are still written.
  const writes = createWriteQueue({ stopAtFailure: false });
  const writing = new Map<string, Promise<unknown>>();
  const queue = (write: () => Promise<unknown>): Promise<void> => {
    writes.add(write);
    return Promise.resolve();
  };
  return {
    emit: (event) => queue(() => sink.emit(event)),
    emitMany: (events) => queue(() => emitAll(sink, events)),
    store(urls, write) {
      const rows = write();
      // Settled for the readers waiting on a URL; a failure reaches flush through the queue below.
      const settled = rows.then(
        () => {},
        () => {},
      );
      for (const url of urls) {
        const before = writing.get(url);
        const done = before ? Promise.all([before, settled]) : settled;
        writing.set(url, done);
        void done.then(() => {
          if (writing.get(url) === done) writing.delete(url);
        });
      }
      void queue(async () => emitAll(sink, await rows));
    },
    async pending(url) {
      await writing.get(url);
    },
    async flush() {
      // drain also waits for what a write queues while it runs.
      await writes.drain();
      const failed = writes.failure();
      if (failed) throw failed.error;
    },
    failure: () => writes.failure()?.error,
  };
}
