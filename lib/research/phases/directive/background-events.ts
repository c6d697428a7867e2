/**
 * A researcher's events, written behind its work instead of in front of it. Each step's event
 * (a think, a search starting, a page read) was awaited before the researcher's next model or web
 * call; with five researchers stepping together those writes queue behind each other, and the
 * slowest researcher's next call waits for all of them. Here an emit returns at once and the
 * events are written in the order emitted, one after another, by the sink given (which still writes
 * each before announcing it). `flush` waits for the writes and reports the first failure, so a
 * researcher's events are all stored before its directive's end is.
 */
import { type EventSink, emitAll } from "../../events.ts";

export interface BackgroundEvents extends EventSink {
  /** Waits until every event emitted so far is written; throws the first write that failed. */
  flush(): Promise<void>;
}

export function inBackground(sink: EventSink): BackgroundEvents {
  let tail: Promise<void> = Promise.resolve();
  let failed: { error: unknown } | undefined;
  const queue = (write: () => Promise<void>): Promise<void> => {
    tail = tail.then(write).catch((error) => {
      failed ??= { error };
    });
    return Promise.resolve();
  };
  return {
    emit: (event) => queue(() => sink.emit(event)),
    emitMany: (events) => queue(() => emitAll(sink, events)),
    async flush() {
      await tail;
      if (failed) throw failed.error;
    },
  };
}
