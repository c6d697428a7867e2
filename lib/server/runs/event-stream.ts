/**
 * Server-Sent Events for one run: replay every stored event after the client's cursor, then follow
 * new rows until the terminal event, then close. Rows are the source of truth, so a reconnect with
 * Last-Event-ID sees exactly what it missed. The stream is one viewer of the run's hub
 * (fanout.ts), which reads and writes for all of the run's viewers in this process; the bus only
 * wakes it. Report deltas, which are never stored, are passed through when asked for and carry no
 * id, so they never move a client's Last-Event-ID.
 *
 * @internal to lib/server/runs/: a helper of its actions, not an action; adapters do not import it.
 */
import type { Db } from "../../../db/client.ts";
import type { RunBus } from "../../jobs/bus.ts";
import { metrics } from "../../telemetry/metrics.ts";
import { encodeText } from "../sse-encoding.ts";
import { type FanoutViewer, runFanout } from "./fanout.ts";

export interface EventStreamOptions {
  db: Db;
  runId: string;
  afterSeq: number;
  signal: AbortSignal;
  bus?: RunBus;
  /** Also stream transient report.delta events (the dashboard wants them; replays cannot have them). */
  deltas?: boolean;
  /** How often the run's hub reads without an announcement (the first viewer's value sets it). */
  pollMs?: number;
  heartbeatMs?: number;
  /** Called once when the stream ends, whichever way (gives back the owner's stream slot). */
  onClose?: () => void;
}

// Tells EventSource clients how soon to reconnect after a dropped connection.
const RETRY = encodeText("retry: 2000\n\n");

export function runEventStream(opts: EventStreamOptions): ReadableStream<Uint8Array> {
  const { db, runId, signal } = opts;
  let open = true;
  let leave = () => {};
  // Counted once when the stream starts, uncounted once when it ends, whichever way.
  const stop = () => {
    if (!open) return false;
    open = false;
    leave();
    signal.removeEventListener("abort", onAbort);
    metrics().sseConnections.dec();
    opts.onClose?.();
    return true;
  };
  let onAbort = () => {};

  return new ReadableStream<Uint8Array>({
    start(controller) {
      metrics().sseConnections.inc();
      const viewer: FanoutViewer = {
        cursor: opts.afterSeq,
        deltas: opts.deltas ?? false,
        lastWrite: Date.now(),
        send(bytes) {
          if (!open) return;
          try {
            controller.enqueue(bytes);
            viewer.lastWrite = Date.now();
          } catch {
            // The stream ended under us (the client went away): the abort or cancel removes it.
          }
        },
        end() {
          if (stop()) controller.close();
        },
        fail(error) {
          if (stop()) controller.error(error);
        },
      };
      onAbort = () => viewer.end();
      if (signal.aborted) return viewer.end();
      signal.addEventListener("abort", onAbort, { once: true });
      viewer.send(RETRY);
      const timing = { pollMs: opts.pollMs ?? 2000, heartbeatMs: opts.heartbeatMs ?? 15_000 };
      leave = runFanout(db, runId, opts.bus, timing).join(viewer);
    },
    cancel() {
      stop();
    },
  });
}
