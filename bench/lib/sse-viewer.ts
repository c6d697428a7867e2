/**
 * One SSE viewer of a run, as a browser tab would be: GET /api/runs/:id/events with the owner's
 * cookie, read as a stream, each event timestamped when its block arrived. Blocks are parsed with
 * the contract tests' own parser (e2e/support/sse.ts), not a client library.
 */
import { isEventBlock, parseSse } from "../../e2e/support/sse.ts";
import type { Delivery } from "./scale-stats.ts";

export interface Viewer {
  /** Resolves with the time the response headers arrived (the viewer is subscribed). */
  connected: Promise<number>;
  /** Resolves when the server closes the stream (after the terminal event) or the deadline passes. */
  done: Promise<{ deliveries: Delivery[]; closed: boolean }>;
}

/** Parses one event block's data into a delivery; `at` is the ISO time the row was written. */
export function toDelivery(data: string | undefined, receivedAt: number): Delivery | undefined {
  if (data === undefined) return undefined;
  const payload = JSON.parse(data) as { seq?: unknown; type?: unknown; at?: unknown };
  if (typeof payload.seq !== "number" || typeof payload.at !== "string") return undefined;
  return { seq: payload.seq, type: String(payload.type), at: Date.parse(payload.at), receivedAt };
}

export function openViewer(baseUrl: string, runId: string, cookie: string, timeoutMs = 120_000): Viewer {
  const ctrl = new AbortController();
  const timer = setTimeout(() => ctrl.abort(), timeoutMs);
  let onConnected: (t: number) => void = () => {};
  let onFailed: (e: unknown) => void = () => {};
  const connected = new Promise<number>((resolve, reject) => {
    onConnected = resolve;
    onFailed = reject;
  });
  const done = (async () => {
    const deliveries: Delivery[] = [];
    try {
      const res = await fetch(`${baseUrl}/api/runs/${runId}/events`, {
        headers: { accept: "text/event-stream", cookie },
        signal: ctrl.signal,
      });
      if (res.status !== 200 || !res.body) throw new Error(`events stream: ${res.status}`);
      onConnected(Date.now());
      const decoder = new TextDecoder();
      let buffer = "";
      const reader = res.body.getReader();
      for (;;) {
        const { value, done } = await reader.read();
        if (done) return { deliveries, closed: true };
        const receivedAt = Date.now();
        buffer += decoder.decode(value, { stream: true });
        const { blocks, rest } = parseSse(buffer);
        buffer = rest;
        for (const b of blocks) {
          if (!isEventBlock(b)) continue;
          const d = toDelivery(b.data, receivedAt);
          if (d) deliveries.push(d);
        }
      }
    } catch (e) {
      onFailed(e);
      if (ctrl.signal.aborted) return { deliveries, closed: false };
      throw e;
    } finally {
      clearTimeout(timer);
    }
  })();
  connected.catch(() => {}); // a failure is reported through `done`
  return { connected, done };
}
