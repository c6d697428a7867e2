/**
 * A researcher's events, written behind its work instead of in front of it. Each step's event
 * (a think, a search starting, a page read) was awaited before the researcher's next model or web
 * call; with five researchers stepping together those writes queue behind each other, and the
 * slowest researcher's next call waits for all of them. Here an emit returns at once and the
 * events are written in the order emitted, one after another, by the sink given (which still writes
 * each before announcing it). `flush` waits for the writes and reports the first failure, so a
 * researcher's events are all stored before its directive's end is. `later` queues any other write
 * of the researcher's (a page read's rows) in the same order.
 */
import { type EventSink, emitAll } from "../../events.ts";

export interface BackgroundEvents extends EventSink {
  /**
   * Queues a write behind the ones before it and returns at once. The write gets the sink itself:
   * its events are written in its place in the order, not queued again behind later ones.
   */
  later(write: (events: EventSink) => Promise<unknown>): void;
  /** Waits until every event emitted and write queued so far is done; throws the first that failed. */
  flush(): Promise<void>;
}

export function inBackground(sink: EventSink): BackgroundEvents {
  let tail: Promise<void> = Promise.resolve();
  let failed: { error: unknown } | undefined;
  const queue = (write: () => Promise<unknown>): Promise<void> => {
    tail = tail
      .then(async () => {
        await write();
      })
      .catch((error) => {
        failed ??= { error };
      });
    return Promise.resolve();
  };
  return {
    later: (write) => void queue(() => write(sink)),
    emit: (event) => queue(() => sink.emit(event)),
    emitMany: (events) => queue(() => emitAll(sink, events)),
    async flush() {
      // A write may queue another while it runs: wait until nothing new was queued.
      for (let seen = tail; ; seen = tail) {
        await seen;
        if (seen === tail) break;
      }
      if (failed) throw failed.error;
    },
  };
}
