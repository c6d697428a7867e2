/**
 * Live wake-ups for run streams. Stored events are announced by seq (readers fetch the rows, so
 * the table stays the single source of truth; embedded, the committed rows come along in-process,
 * see `rows`); transient report deltas carry their text because they are never stored. Embedded
 * (PGlite): an in-process emitter — the worker runs in the same process. PostgreSQL: LISTEN/NOTIFY
 * on one channel, so a standalone worker's events reach every web process. A message is delivered
 * in its own process at once, then sent with NOTIFY marked with this bus's origin; the bus skips
 * its own NOTIFY when it comes back, so nothing arrives twice. The local delivery spares the
 * in-process worker's viewers a round trip through the server, which a busy process (many viewers
 * to write to) stretches.
 */
import { randomUUID } from "node:crypto";
import { EventEmitter } from "node:events";
import type { DatabaseHandle } from "../../db/client.ts";
import type { RunEvent } from "../../db/schema.ts";

export type BusMessage =
  | {
      kind: "event";
      runId: string;
      /** The last of the events just committed together (readers take every row up to it). */
      seq: number;
      type: string;
      /**
       * Those rows, in this process only and only embedded: the hub writes them to viewers already
       * right behind them instead of reading them back (lib/server/runs/fanout.ts). Never sent with NOTIFY.
       */
      rows?: readonly RunEvent[];
    }
  /** Streamed text: the report's, or with `questionId` a follow-up answer's (question.delta). */
  | { kind: "delta"; runId: string; text: string; questionId?: string }
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
    async publish(published) {
      // Viewers read the rows: a read takes a pooled connection, not the run's own, so it costs the
      // run nothing (embedded, every statement waits on PGlite's one connection, hence `rows` there).
      const m = published.kind === "event" ? withoutRows(published) : published;
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

function withoutRows(m: Extract<BusMessage, { kind: "event" }>): BusMessage {
  const { rows: _, ...announced } = m;
  return announced;
}

function chunk(s: string, n: number): string[] {
  const out: string[] = [];
  for (let i = 0; i < s.length; i += n) out.push(s.slice(i, i + n));
  return out;
}
