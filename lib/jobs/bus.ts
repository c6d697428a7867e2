/**
 * Live wake-ups for run streams. Stored events are announced by id only (readers fetch the rows, so
 * the table stays the single source of truth); transient report deltas carry their text because
 * they are never stored. Embedded (PGlite): an in-process emitter — the worker runs in the same
 * process. PostgreSQL: LISTEN/NOTIFY on one channel, so a standalone worker's events reach every
 * web process. A message is delivered in its own process at once, then sent with NOTIFY marked with
 * this bus's origin; the bus skips its own NOTIFY when it comes back, so nothing arrives twice. The
 * local delivery spares the in-process worker's viewers a round trip through the server, which a
 * busy process (many viewers to write to) stretches.
 */
import { randomUUID } from "node:crypto";
import { EventEmitter } from "node:events";
import type { DatabaseHandle } from "../../db/client.ts";

export type BusMessage =
  | { kind: "event"; runId: string; seq: number; type: string }
  | { kind: "delta"; runId: string; text: string }
  | { kind: "cancel"; runId: string }
  /** The owner asked for the report now: the run's worker stops researching. */
  | { kind: "finish"; runId: string };

export interface RunBus {
  publish(message: BusMessage): Promise<void>;
  /** Messages for one run; returns the unsubscribe function. */
  subscribe(runId: string, listener: (message: BusMessage) => void): () => void;
  close(): Promise<void>;
}

export const BUS_CHANNEL = "deep_research_runs";
// NOTIFY payloads are capped at 8000 bytes; long deltas are split below that.
const MAX_DELTA_CHARS = 2000;

export async function createRunBus(handle: DatabaseHandle): Promise<RunBus> {
  const emitter = new EventEmitter();
  emitter.setMaxListeners(0);
  const deliver = (m: BusMessage) => {
    try {
      emitter.emit(m.runId, m);
    } catch {
      // A listener's failure is its own: the publisher (an event already committed) and the other
      // processes still go on.
    }
  };

  if (handle.kind === "pglite") {
    return {
      async publish(m) {
        deliver(m);
      },
      subscribe(runId, listener) {
        emitter.on(runId, listener);
        return () => emitter.off(runId, listener);
      },
      async close() {
        emitter.removeAllListeners();
      },
    };
  }

  const sql = handle.client;
  const origin = randomUUID();
  const listening = await sql.listen(BUS_CHANNEL, (payload) => {
    try {
      const { origin: from, ...m } = JSON.parse(payload) as BusMessage & { origin?: string };
      if (from !== origin) deliver(m as BusMessage);
    } catch {
      // A foreign or malformed notification on our channel is ignored rather than crashing the listener.
    }
  });
  return {
    async publish(m) {
      deliver(m);
      const parts =
        m.kind === "delta" && m.text.length > MAX_DELTA_CHARS
          ? chunk(m.text, MAX_DELTA_CHARS).map((text) => ({ ...m, text }))
          : [m];
      for (const p of parts) await sql.notify(BUS_CHANNEL, JSON.stringify({ ...p, origin }));
    },
    subscribe(runId, listener) {
      emitter.on(runId, listener);
      return () => emitter.off(runId, listener);
    },
    async close() {
      emitter.removeAllListeners();
      await listening.unlisten();
    },
  };
}

function chunk(s: string, n: number): string[] {
  const out: string[] = [];
  for (let i = 0; i < s.length; i += n) out.push(s.slice(i, i + n));
  return out;
}
