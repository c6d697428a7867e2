/**
 * Follows one run's event stream (GET /api/runs/:id/events, Server-Sent Events) as the admin until
 * its terminal event. Each event keeps the row's `at` (server clock, when the event was written)
 * and when this client received it (same machine, same clock).
 */
import type { BenchWorld } from "./world.ts";

export interface StreamedEvent {
  seq: number;
  type: string;
  /** The run_events row's time (ms since the epoch). */
  at: number;
  receivedAt: number;
  data: Record<string, unknown>;
}

const TERMINAL = new Set(["run.completed", "run.failed", "run.cancelled"]);

function parseFrame(frame: string, receivedAt: number): StreamedEvent | undefined {
  let type = "";
  let data = "";
  for (const line of frame.split("\n")) {
    if (line.startsWith("event: ")) type = line.slice(7);
    else if (line.startsWith("data: ")) data += line.slice(6);
  }
  if (!type || !data) return undefined;
  const parsed = JSON.parse(data) as Record<string, unknown>;
  return {
    seq: Number(parsed.seq),
    type,
    at: Date.parse(String(parsed.at)),
    receivedAt,
    data: parsed,
  };
}

/**
 * Reads one run's event stream from `after` (with the streamed deltas when `deltas`) and hands each
 * event to `until` as it arrives; resolves with every event read once `until` returns true, rejects
 * after `timeoutMs` or when the stream ends first.
 */
export async function readEvents(
  world: Pick<BenchWorld, "url" | "cookie">,
  runId: string,
  opts: { after?: number; deltas?: boolean; timeoutMs?: number; until: (e: StreamedEvent) => boolean },
): Promise<StreamedEvent[]> {
  const abort = new AbortController();
  const timer = setTimeout(
    () => abort.abort(new Error(`run ${runId}: the awaited event did not come in time`)),
    opts.timeoutMs ?? 120_000,
  );
  const query = new URLSearchParams({
    after: String(opts.after ?? 0),
    ...(opts.deltas ? { deltas: "1" } : {}),
  });
  const events: StreamedEvent[] = [];
  try {
    const r = await fetch(`${world.url}/api/runs/${runId}/events?${query}`, {
      headers: { cookie: world.cookie, accept: "text/event-stream" },
      signal: abort.signal,
    });
    if (!r.ok || !r.body) throw new Error(`GET events of ${runId}: ${r.status}`);
    const decoder = new TextDecoder();
    let buffer = "";
    for await (const chunk of r.body) {
      const receivedAt = Date.now();
      buffer += decoder.decode(chunk as Uint8Array, { stream: true });
      let end = buffer.indexOf("\n\n");
      while (end >= 0) {
        const e = parseFrame(buffer.slice(0, end), receivedAt);
        buffer = buffer.slice(end + 2);
        end = buffer.indexOf("\n\n");
        if (!e) continue;
        events.push(e);
        if (opts.until(e)) return events;
      }
    }
    throw new Error(`run ${runId}: the event stream ended before the awaited event`);
  } finally {
    clearTimeout(timer);
    abort.abort();
  }
}

/**
 * Resolves with every event once the terminal one arrives; rejects after `timeoutMs`.
 * `onEvent` sees each as it arrives (e.g. to cancel a run once it has started).
 */
export async function followRun(
  world: Pick<BenchWorld, "url" | "cookie">,
  runId: string,
  opts: { timeoutMs?: number; onEvent?: (e: StreamedEvent) => void } = {},
): Promise<StreamedEvent[]> {
  return readEvents(world, runId, {
    timeoutMs: opts.timeoutMs,
    until: (e) => {
      opts.onEvent?.(e);
      return TERMINAL.has(e.type);
    },
  });
}
