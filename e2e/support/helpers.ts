import type { APIRequestContext } from "@playwright/test";
import type { ScriptRule } from "../../test/support/llm-server.ts";
import { type AppSession, sessionHeaders, sharedApp } from "./session.ts";
import { parseSse } from "./sse.ts";

export const llmOrigin = () => new URL(process.env.E2E_LLM_URL!).origin;
export const webUrl = () => process.env.E2E_WEB_URL!;
export const baseUrl = () => process.env.E2E_BASE_URL!;

export async function scriptLlm(rules: ScriptRule[]): Promise<void> {
  await fetch(`${llmOrigin()}/__control/reset`, { method: "POST" });
  const r = await fetch(`${llmOrigin()}/__control/script`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ rules }),
  });
  if (!r.ok) throw new Error(`scripting the LLM failed: ${r.status} ${await r.text()}`);
}

export async function llmRequests(): Promise<
  { rule?: string; aborted: boolean; status: number; body: unknown }[]
> {
  return (await (await fetch(`${llmOrigin()}/__control/requests`)).json()).requests;
}

/** Whether a call of the scripted rule `rule` is being held open (a `hang` reply), i.e. that step is mid-flight. */
export async function isHanging(rule: string): Promise<boolean> {
  return (await llmRequests()).some((r) => r.rule === rule && r.status === 0);
}

/** Earlier tests may leave runs working; a scripted test waits until none is, so none eats its replies. */
export async function waitForIdle(request: APIRequestContext, timeoutMs = 30_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const { runs } = await (await request.get("/api/runs")).json();
    const busy = runs.filter((r: { status: string }) => ["queued", "running"].includes(r.status));
    if (!busy.length) return;
    if (Date.now() > deadline) throw new Error(`runs still busy: ${JSON.stringify(busy)}`);
    await new Promise((r) => setTimeout(r, 250));
  }
}

export async function waitForStatus(
  request: APIRequestContext,
  id: string,
  statuses: string[],
  timeoutMs = 60_000,
): Promise<Record<string, unknown>> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const run = await (await request.get(`/api/runs/${id}`)).json();
    if (statuses.includes(run.status)) return run;
    if (Date.now() > deadline) throw new Error(`run ${id} is ${run.status}, not ${statuses.join("|")}`);
    await new Promise((r) => setTimeout(r, 200));
  }
}

/** Reads a run's SSE stream to its end, signed in to `app` (the shared app by default); returns [seq, type] pairs. */
export async function readEventStream(
  id: string,
  lastEventId?: number,
  app: AppSession = sharedApp(),
): Promise<[number, string][]> {
  const r = await fetch(`${app.url}/api/runs/${id}/events`, {
    headers: sessionHeaders(app, lastEventId === undefined ? {} : { "last-event-id": String(lastEventId) }),
  });
  if (r.status !== 200) throw new Error(`events of run ${id}: ${r.status} ${await r.text()}`);
  return parseSse(await r.text())
    .blocks.filter((b) => b.id !== undefined && b.event !== undefined)
    .map((b) => [Number(b.id), b.event!]);
}
