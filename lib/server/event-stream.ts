/**
 * Server-Sent Events for one run: replay every stored event after the client's cursor, then follow
 * new rows until the terminal event, then close. Rows are the source of truth, so a reconnect with
 * Last-Event-ID sees exactly what it missed. The bus only wakes the loop (a missed wake-up costs at
 * most one poll interval); report deltas, which are never stored, are passed through when asked for
 * and carry no id, so they never move a client's Last-Event-ID.
 */
import type { Db } from "../../db/client.ts";
import { getEvent } from "../../db/queries/events.ts";
import { type RunEvent, terminalRunStatuses } from "../../db/schema.ts";
import type { RunBus } from "../jobs/bus.ts";
import { type ResearchEventType, terminalEventTypes } from "../research/events.ts";
import { metrics } from "../telemetry/metrics.ts";
import { encodedRows, sharedEventsAfter, sharedRunProgress } from "./shared-reads.ts";

export interface EventStreamOptions {
  db: Db;
  runId: string;
  afterSeq: number;
  signal: AbortSignal;
  bus?: RunBus;
  /** Also stream transient report.delta events (the dashboard wants them; replays cannot have them). */
  deltas?: boolean;
  pollMs?: number;
  heartbeatMs?: number;
}

const TERMINAL_EVENT_GRACE_MS = 10_000;

export function formatSse(seq: number | null, type: string, data: unknown): string {
  return `${seq === null ? "" : `id: ${seq}\n`}event: ${type}\ndata: ${JSON.stringify(data)}\n\n`;
}

export function runEventStream(opts: EventStreamOptions): ReadableStream<Uint8Array> {
  const { db, runId, signal } = opts;
  const pollMs = opts.pollMs ?? 2000;
  const heartbeatMs = opts.heartbeatMs ?? 15_000;
  const encoder = new TextEncoder();
  let cursor = opts.afterSeq;
  let terminalSince: number | undefined;
  let wake: (() => void) | null = null;
  // The seq of the announcement that woke the loop: viewers woken by the same one share their reads.
  let wokenBy: number | null = null;
  let unsubscribe = () => {};
  // Live connections: counted once when the stream starts, uncounted once when it ends either way.
  let connected = false;
  const disconnect = () => {
    if (connected) metrics().sseConnections.dec();
    connected = false;
  };

  return new ReadableStream<Uint8Array>({
    async start(controller) {
      connected = true;
      metrics().sseConnections.inc();
      let lastWrite = Date.now();
      let open = true;
      const write = (s: string | Uint8Array) => {
        if (!open) return;
        controller.enqueue(typeof s === "string" ? encoder.encode(s) : s);
        lastWrite = Date.now();
      };
      const formatRow = (e: RunEvent) =>
        formatSse(e.seq, e.type, { ...e.payload, type: e.type, seq: e.seq, at: e.createdAt });
      const isTerminal = (e: RunEvent) => terminalEventTypes.has(e.type as ResearchEventType);
      const close = () => {
        if (!open) return;
        open = false;
        unsubscribe();
        controller.close();
      };
      if (opts.bus) {
        unsubscribe = opts.bus.subscribe(runId, (m) => {
          if (m.kind === "delta" && opts.deltas) write(formatSse(null, "report.delta", { text: m.text }));
          else if (m.kind === "event" && m.seq > cursor) {
            wokenBy = Math.max(wokenBy ?? 0, m.seq);
            wake?.();
          }
        });
      }
      // Tell EventSource clients how soon to reconnect after a dropped connection.
      write("retry: 2000\n\n");
      try {
        while (!signal.aborted && open) {
          const woken = wokenBy;
          wokenBy = null;
          const rows = await sharedEventsAfter(db, runId, cursor, 500, woken);
          const sent = encodedRows(rows, formatRow, isTerminal);
          if (sent) {
            write(sent.bytes);
            cursor = sent.lastSeq;
            if (sent.terminal) return close();
          }
          // A full page, or an announcement that came while this read was out (it may have started
          // before that event's commit): read again now rather than sleep through it until the poll.
          if (rows.length === 500 || (wokenBy !== null && wokenBy > cursor)) continue;
          // New events and none terminal: the run is going on, no need to ask for its status (the
          // next wake-up, or poll, asks when it brings nothing).
          if (rows.length === 0) {
            // A finished run whose events are all sent (the client reconnected after the terminal
            // event) ends the stream. The status may be written just before the terminal event, so a
            // terminal status alone is not the end: wait briefly for that last event before giving up.
            const run = await sharedRunProgress(db, runId, woken);
            if (!run) return close();
            if (terminalRunStatuses.includes(run.status) && run.lastEventSeq <= cursor) {
              const last = cursor > 0 ? await getEvent(db, runId, cursor) : undefined;
              if (last && terminalEventTypes.has(last.type as ResearchEventType)) return close();
              terminalSince ??= Date.now();
              if (Date.now() - terminalSince > TERMINAL_EVENT_GRACE_MS) return close();
            }
          }
          if (Date.now() - lastWrite >= heartbeatMs) write(": heartbeat\n\n");
          await new Promise<void>((resolve) => {
            const t = setTimeout(done, Math.min(pollMs, heartbeatMs));
            function done() {
              clearTimeout(t);
              wake = null;
              signal.removeEventListener("abort", done);
              resolve();
            }
            wake = done;
            signal.addEventListener("abort", done, { once: true });
          });
        }
        close();
      } catch (e) {
        unsubscribe();
        if (!signal.aborted && open) controller.error(e);
      } finally {
        disconnect();
      }
    },
    cancel() {
      disconnect();
      unsubscribe();
      wake?.();
    },
  });
}
