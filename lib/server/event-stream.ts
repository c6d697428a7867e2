/**
 * Server-Sent Events for one run: replay every stored event after the client's cursor, then follow
 * new rows until the terminal event, then close. Rows are the source of truth, so a reconnect with
 * Last-Event-ID sees exactly what it missed. Following is by polling the table for now (works across
 * processes with no extra moving parts); a wake-up signal can shorten the wait later.
 */
import type { Db } from "../../db/client.ts";
import { listEventsAfter } from "../../db/queries/events.ts";
import { getRun } from "../../db/queries/runs.ts";
import { terminalRunStatuses } from "../../db/schema.ts";
import { type ResearchEventType, terminalEventTypes } from "../research/events.ts";


export interface EventStreamOptions {
  db: Db;
  runId: string;
  afterSeq: number;
  signal: AbortSignal;
  pollMs?: number;
  heartbeatMs?: number;
}

export function formatSse(seq: number, type: string, data: unknown): string {
  return `id: ${seq}\nevent: ${type}\ndata: ${JSON.stringify(data)}\n\n`;
}

export function runEventStream(opts: EventStreamOptions): ReadableStream<Uint8Array> {
  const { db, runId, signal } = opts;
  const pollMs = opts.pollMs ?? 500;
  const heartbeatMs = opts.heartbeatMs ?? 15_000;
  const encoder = new TextEncoder();
  let cursor = opts.afterSeq;

  return new ReadableStream<Uint8Array>({
    async start(controller) {
      let lastWrite = Date.now();
      const write = (s: string) => {
        controller.enqueue(encoder.encode(s));
        lastWrite = Date.now();
      };
      // Tell EventSource clients how soon to reconnect after a dropped connection.
      write("retry: 2000\n\n");
      try {
        while (!signal.aborted) {
          const rows = await listEventsAfter(db, runId, cursor, 500);
          for (const e of rows) {
            write(formatSse(e.seq, e.type, { ...e.payload, type: e.type, seq: e.seq, at: e.createdAt }));
            cursor = e.seq;
            if (terminalEventTypes.has(e.type as ResearchEventType)) return controller.close();
          }
          if (rows.length === 500) continue;
          // A terminal run whose events are all sent is finished even if its terminal event predates the cursor.
          const run = await getRun(db, runId);
          if (!run || (terminalRunStatuses.includes(run.status) && run.lastEventSeq <= cursor)) {
            return controller.close();
          }
          if (Date.now() - lastWrite >= heartbeatMs) write(": heartbeat\n\n");
          await sleep(pollMs, signal);
        }
        controller.close();
      } catch (e) {
        if (!signal.aborted) controller.error(e);
      }
    },
  });
}

function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    const t = setTimeout(done, ms);
    function done() {
      clearTimeout(t);
      signal.removeEventListener("abort", done);
      resolve();
    }
    signal.addEventListener("abort", done, { once: true });
  });
}
