/**
 * One SSE viewer of a run, as a browser tab would be: GET /api/runs/:id/events with the owner's
 * cookie, read as it arrives, each event timestamped when its block arrived. Blocks are parsed with
 * the contract tests' own parser (e2e/support/sse.ts), not a client library.
 *
 * It reads with node:http rather than fetch: the benchmark's 200 viewers share the app's two cores,
 * where real viewers bring their own machines, and fetch's web-stream reader costs about twice as
 * much per chunk (measured: 200 viewers in one process, 1.7–2.9 ms more per event). The viewers'
 * own work is not the app's, so the lighter client leaves the figure closer to the app's share.
 */
import http from "node:http";
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

/** The deliveries in a stream's chunks; a block is stamped with the arrival of the chunk that ends it. */
export function deliveriesOf(chunks: readonly { text: string; receivedAt: number }[]): Delivery[] {
  const out: Delivery[] = [];
  let buffer = "";
  for (const { text, receivedAt } of chunks) {
    const { blocks, rest } = parseSse(buffer + text);
    buffer = rest;
    for (const b of blocks) {
      if (!isEventBlock(b)) continue;
      const d = toDelivery(b.data, receivedAt);
      if (d) out.push(d);
    }
  }
  return out;
}

export function openViewer(baseUrl: string, runId: string, cookie: string, timeoutMs = 120_000): Viewer {
  let onConnected: (t: number) => void = () => {};
  let onFailed: (e: unknown) => void = () => {};
  const connected = new Promise<number>((resolve, reject) => {
    onConnected = resolve;
    onFailed = reject;
  });
  const done = new Promise<{ deliveries: Delivery[]; closed: boolean }>((resolve, reject) => {
    // Each chunk is stamped as it arrives and parsed only after: parsing 200 viewers' chunks as they
    // come would delay the stamps of the viewers read after them.
    const chunks: { text: string; receivedAt: number }[] = [];
    let settled = false;
    let timedOut = false;
    const finish = (closed: boolean) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      // Parsed when first asked for, not here: a viewer that ends while others are still reading
      // would otherwise hold up their stamps with its whole stream's parse.
      let parsed: Delivery[] | undefined;
      resolve({
        get deliveries() {
          parsed ??= deliveriesOf(chunks);
          return parsed;
        },
        closed,
      });
    };
    const fail = (e: unknown) => {
      onFailed(e);
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      reject(e);
    };
    const req = http.get(
      `${baseUrl}/api/runs/${runId}/events`,
      { headers: { accept: "text/event-stream", cookie }, agent: false },
      (res) => {
        if (res.statusCode !== 200) {
          res.resume();
          return fail(new Error(`events stream: ${res.statusCode}`));
        }
        onConnected(Date.now());
        res.setEncoding("utf8");
        res.on("data", (text: string) => chunks.push({ text, receivedAt: Date.now() }));
        res.on("end", () => finish(true));
        res.on("error", (e) => (timedOut ? finish(false) : fail(e)));
      },
    );
    req.on("error", (e) => (timedOut ? finish(false) : fail(e)));
    const timer = setTimeout(() => {
      timedOut = true;
      req.destroy();
      finish(false);
    }, timeoutMs);
  });
  connected.catch(() => {}); // a failure is reported through `done`
  return { connected, done };
}
