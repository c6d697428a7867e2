/**
 * The HTTP contract (docs/API.md) checked from outside, as any client sees it: the error shape,
 * not-found answers, the event stream's shape, Last-Event-ID replay, and a completed run's report
 * whose every listed source is one the run really stored. Specs call these; the assertions live here
 * so the rules are written once.
 */
import { type APIRequestContext, type APIResponse, expect } from "@playwright/test";
import { sessionHeaders, sharedApp } from "./session.ts";
import { isEventBlock, readSse, type SseBlock } from "./sse.ts";

/** A well-formed run id that no run has. */
export const MISSING_RUN_ID = "00000000-0000-4000-8000-000000000000";

export const TERMINAL_EVENT_TYPES = ["run.completed", "run.failed", "run.cancelled"];

export interface ApiError {
  code: string;
  message: string;
}

/** Every caller mistake is a 4xx with `{"error": {"code", "message"}}`, both strings. */
export async function expectApiError(res: APIResponse, label: string, status?: number): Promise<ApiError> {
  const text = await res.text();
  if (status === undefined) {
    expect(res.status(), `${label}: ${text}`).toBeGreaterThanOrEqual(400);
    expect(res.status(), `${label}: ${text}`).toBeLessThan(500);
  } else {
    expect(res.status(), `${label}: ${text}`).toBe(status);
  }
  expect(res.headers()["content-type"], label).toMatch(/^application\/json/);
  const body = JSON.parse(text);
  expect(typeof body?.error?.code, `${label}: ${text}`).toBe("string");
  expect(typeof body?.error?.message, `${label}: ${text}`).toBe("string");
  expect(body.error.message.length, label).toBeGreaterThan(0);
  return body.error;
}

export interface StreamedEvent {
  seq: number;
  type: string;
  data: Record<string, unknown>;
}

/**
 * Every event block carries `id:` (the event's seq), `event:` (its type) and `data:` (a JSON object
 * that repeats both). Blocks that are not events (the `retry:` hint, heartbeat comments) are skipped.
 */
export function expectEventBlocks(blocks: SseBlock[]): StreamedEvent[] {
  return blocks.filter(isEventBlock).map((b) => {
    const shown = JSON.stringify(b.raw.slice(0, 120));
    expect(b.id, `id: line in ${shown}`).toMatch(/^\d+$/);
    expect(b.event, `event: line in ${shown}`).toMatch(/^[a-z_]+\.[a-z_]+$/);
    expect(b.data, `data: line in ${shown}`).toBeDefined();
    let data: unknown;
    expect(() => {
      data = JSON.parse(b.data!);
    }, `data: is JSON in ${shown}`).not.toThrow();
    expect(data, `data: is a JSON object in ${shown}`).toEqual(expect.any(Object));
    const payload = data as Record<string, unknown>;
    expect(payload.type, `data.type in ${shown}`).toBe(b.event);
    expect(payload.seq, `data.seq in ${shown}`).toBe(Number(b.id));
    return { seq: Number(b.id), type: b.event!, data: payload };
  });
}

/** Reads a run's stored events after `lastEventId` (header) or `after` (query), to the stream's close, as the shared app's admin. */
export async function readRunEvents(
  id: string,
  cursor?: { lastEventId?: number; after?: number },
): Promise<{ events: StreamedEvent[]; contentType: string; status: number; closed: boolean }> {
  const query = cursor?.after === undefined ? "" : `?after=${cursor.after}`;
  const headers: Record<string, string> =
    cursor?.lastEventId === undefined ? {} : { "last-event-id": String(cursor.lastEventId) };
  const app = sharedApp();
  const reading = await readSse(`${app.url}/api/runs/${id}/events${query}`, sessionHeaders(app, headers));
  return { ...reading, events: expectEventBlocks(reading.blocks) };
}

/** The stored sources a report lists under `## Sources`: `[N] [Title](URL)` entries, optionally noted `*(read in full)*`. */
export function listedSources(markdown: string): { n: number; url: string }[] {
  const parts = markdown.split(/^## Sources[ \t]*$/m);
  if (parts.length < 2) return [];
  const section = parts.at(-1)!;
  return [
    ...section.matchAll(/^\s*\[(\d+)\]\s*\[(?:\\.|[^\]\\])*\]\((\S+?)\)(?:\s*\*\(read in full\)\*)?\s*$/gm),
  ].map((m) => ({
    n: Number(m[1]),
    url: m[2],
  }));
}

/**
 * Starts a run (the model must be scripted to complete it), follows its event stream to the end,
 * and checks the contract of everything a client can read about it.
 */
export async function checkRunContract(request: APIRequestContext, question: string): Promise<void> {
  const created = await request.post("/api/runs", { data: { question } });
  const createdText = await created.text();
  expect(created.status(), createdText).toBe(201);
  const id = JSON.parse(createdText).id;
  expect(id, createdText).toMatch(/^[0-9a-f-]{36}$/);

  // The live stream, from the first event to the terminal one, then closed by the server.
  const live = await readRunEvents(id);
  expect(live.status).toBe(200);
  expect(live.contentType).toMatch(/^text\/event-stream/);
  expect(live.closed, "the stream closes after the terminal event").toBe(true);
  const seqs = live.events.map((e) => e.seq);
  expect(seqs.length).toBeGreaterThan(2);
  expect(seqs, "event ids are consecutive from 1").toEqual(seqs.map((_, i) => i + 1));
  const last = live.events.at(-1)!;
  expect(TERMINAL_EVENT_TYPES, "the stream ends with a terminal event").toContain(last.type);
  expect(
    live.events.filter((e) => TERMINAL_EVENT_TYPES.includes(e.type)),
    "exactly one terminal event",
  ).toHaveLength(1);

  // A reconnect replays exactly what follows the client's cursor, by header or by query.
  const k = seqs[Math.floor(seqs.length / 2)];
  const following = seqs.filter((s) => s > k);
  const replay = await readRunEvents(id, { lastEventId: k });
  expect(replay.closed).toBe(true);
  expect(
    replay.events.map((e) => e.seq),
    `Last-Event-ID ${k} replays ${k + 1}..${last.seq}`,
  ).toEqual(following);
  expect(replay.events.map((e) => e.type)).toEqual(live.events.filter((e) => e.seq > k).map((e) => e.type));
  const byQuery = await readRunEvents(id, { after: k });
  expect(
    byQuery.events.map((e) => e.seq),
    `?after=${k}`,
  ).toEqual(following);
  const atEnd = await readRunEvents(id, { lastEventId: last.seq });
  expect(atEnd.closed, "a client that saw the terminal event gets a closed stream").toBe(true);
  expect(atEnd.events).toEqual([]);

  // The run as JSON agrees with its stream.
  const runRes = await request.get(`/api/runs/${id}`);
  expect(runRes.status()).toBe(200);
  const run = await runRes.json();
  expect(typeof run.status).toBe("string");
  expect(last.type, "the terminal event names the run's status").toBe(`run.${run.status}`);
  expect(run.status, `the scripted run completes (error: ${run.error})`).toBe("completed");

  // The report: Markdown, numbered citations, and every listed source is one the run stored.
  const md = await request.get(`/api/runs/${id}/report.md`);
  expect(md.status()).toBe(200);
  expect(md.headers()["content-type"]).toMatch(/^text\/markdown/);
  const report = await md.text();
  const [body] = report.split(/^## Sources[ \t]*$/m);
  const cited = new Set([...body.matchAll(/\[(\d+)\]/g)].map((m) => Number(m[1])));
  expect(cited.size, "the report cites by number").toBeGreaterThan(0);
  const listed = listedSources(report);
  expect(listed.length, "the report lists its sources").toBeGreaterThan(0);
  const stored = (run.sources as { url: string }[]).map((s) => s.url);
  for (const l of listed) expect(stored, `listed source [${l.n}] is a stored source`).toContain(l.url);
  for (const n of cited)
    expect(
      listed.map((l) => l.n),
      `citation [${n}] resolves`,
    ).toContain(n);
}
