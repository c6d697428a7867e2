/**
 * The engine's EventSink for a real run: every event becomes a run_events row (gapless seq) before
 * it is announced; transient ones (report.delta) are only announced. The terminal event is always
 * the last row: it waits for events still being written, and nothing is written after it.
 */
import type { Db } from "../../db/client.ts";
import { appendEvent } from "../../db/queries/events.ts";
import {
  type EventSink,
  type ResearchEvent,
  terminalEventTypes,
  transientEventTypes,
} from "../research/events.ts";
import type { RunBus } from "./bus.ts";

export function createRunEventSink(db: Db, bus: RunBus, runId: string): EventSink {
  const inFlight = new Set<Promise<unknown>>();
  let closed = false;

  const store = async (event: ResearchEvent) => {
    const { type, ...payload } = event;
    const row = await appendEvent(db, runId, type, payload);
    await bus.publish({ kind: "event", runId, seq: row.seq, type });
  };

  return {
    async emit(event: ResearchEvent) {
      if (closed) return;
      if (transientEventTypes.has(event.type)) {
        if (event.type === "report.delta") await bus.publish({ kind: "delta", runId, text: event.text });
        return;
      }
      if (terminalEventTypes.has(event.type)) {
        closed = true;
        await Promise.allSettled([...inFlight]);
        await store(event);
        return;
      }
      const p = store(event);
      inFlight.add(p);
      try {
        await p;
      } finally {
        inFlight.delete(p);
      }
    },
  };
}
