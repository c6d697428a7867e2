/**
 * Runs whose first model fails, through the built app and its scripted model server (scripted by
 * model name): a revoked key (401) and a provider that answers 500 to every call each end with the
 * run completed on the second model of the chain, `model.failover` events, the notice on the run
 * page, the switches in the activity and usage split by model. A local server that answers
 * json_schema with Ollama's error is asked in JSON mode instead, and the run completes. Tiny runs:
 * one round, two directives. The shared app runs with MODEL_MAX_RETRIES=0, so a 500 is retried
 * zero times before the call goes on to the next model.
 */
import { type APIRequestContext, expect, type Page, test } from "@playwright/test";
import type { ScriptRule, ServerEmulation } from "../test/support/llm-server.ts";
import {
  baseUrl,
  llmOrigin,
  llmRequests,
  scriptLlm,
  waitForIdle,
  waitForStatus,
  webUrl,
} from "./support/helpers.ts";
import { researchScript } from "./support/research-script.ts";
import { sessionHeaders, sharedApp } from "./support/session.ts";
import { parseSse } from "./support/sse.ts";

const SECOND = "openai-compatible:scripted-model";
const QUESTION = "Heat pump or gas boiler for a typical home in a cold climate?";

type Stored = { type: string; seq: number; [k: string]: unknown };
type RunJson = {
  status: string;
  settings: { models: Record<string, string> };
  usage: { byModel: Record<string, { calls: number }> };
  supervisionHistory: { round: number; assessment: { method?: string } | null }[];
  citationStats: { supportChecked?: number } | null;
  directives: unknown[];
};

/** Every role on `chain` (summarization and synthesis follow compression and the supervisor). */
const everyRole = (chain: string) => ({ supervisor: chain, researcher: chain, compression: chain });

async function startRun(request: APIRequestContext, models: Record<string, string>): Promise<string> {
  const res = await request.post("/api/runs", {
    data: { question: QUESTION, settings: { maxSupervisionRounds: 1, models } },
  });
  expect(res.status()).toBe(201);
  const body = await res.json();
  expect(body.warnings).toEqual([]);
  return body.id;
}

/** A finished run's stored events (its stream ends with the run). */
async function storedEvents(id: string): Promise<Stored[]> {
  const r = await fetch(`${baseUrl()}/api/runs/${id}/events`, { headers: sessionHeaders(sharedApp()) });
  return parseSse(await r.text())
    .blocks.filter((b) => b.id !== undefined && b.data)
    .map((b) => JSON.parse(b.data as string));
}

async function emulate(servers: ServerEmulation[]): Promise<void> {
  const r = await fetch(`${llmOrigin()}/__control/emulate`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ servers }),
  });
  expect(r.status).toBe(200);
}

/** The first model answers every call with `status`; the rest of the script is the usual run's. */
function failingFirst(model: string, status: number): ScriptRule[] {
  return [
    { name: "first-model", match: { model }, replies: [{ kind: "error", status }], repeat: true },
    ...researchScript({ webUrl: webUrl() }),
  ];
}

/**
 * The run completed on the second model: every call the first was asked failed and went on with one
 * `model.failover` of `reason`; the page shows the notice, the switches in the activity and the
 * usage of both models (none for the first).
 */
async function expectCompletedOnSecond(
  page: Page,
  request: APIRequestContext,
  id: string,
  first: string,
  reason: string,
  words: { notice: string; detail: string },
): Promise<void> {
  const run = (await waitForStatus(request, id, ["completed", "failed"], 90_000)) as unknown as RunJson;
  expect(run.status).toBe("completed");
  expect(run.directives).toHaveLength(2);
  const firstId = `openai-compatible:${first}`;
  expect(run.settings.models.supervisor).toBe(`${firstId},${SECOND}`);

  const switches = (await storedEvents(id)).filter((e) => e.type === "model.failover");
  const asked = (await llmRequests()).filter((r) => (r.body as { model?: string }).model === first);
  expect(asked.length).toBeGreaterThan(0);
  expect(asked.every((r) => r.rule === "first-model")).toBe(true);
  // One switch per failed call (a call the breaker sent straight on is a `paused` switch instead).
  const failed = switches.filter((s) => s.reason === reason);
  expect(failed).toHaveLength(asked.length);
  for (const s of switches) expect(s).toMatchObject({ from: firstId, to: SECOND });
  // Every role switched: the supervisor's plan, the researchers' steps, the report.
  for (const role of ["supervisor", "researcher", "compression", "synthesis"])
    expect(switches.some((s) => s.role === role)).toBe(true);
  // Usage split by model: every answered call on the second model, none on the first.
  expect(Object.keys(run.usage.byModel)).toEqual([SECOND]);

  await page.goto(`/runs/${id}`);
  const notice = page.getByTestId("model-notice");
  await expect(notice.getByTestId("model-switch").first()).toContainText(
    `Calls went from ${firstId} to ${SECOND}`,
  );
  await expect(notice).toContainText(words.notice);
  await expect(notice).toContainText(words.detail);
  await expect(page.getByTestId("timeline")).toContainText(`Switched from ${firstId} to ${SECOND}`);
  await page.screenshot({ path: test.info().outputPath("run-page.png"), fullPage: false });
  await page.getByRole("tab", { name: "Usage" }).click();
  const rows = page
    .getByTestId("usage-by-model")
    .getByRole("row")
    .filter({ has: page.locator("td") });
  await expect(rows).toHaveCount(2);
  await expect(rows.nth(0)).toHaveAttribute("data-key", SECOND);
  await expect(rows.nth(0)).toHaveAttribute("data-calls", String(run.usage.byModel[SECOND].calls));
  await expect(rows.nth(1)).toHaveAttribute("data-key", firstId);
  await expect(rows.nth(1)).toHaveAttribute("data-calls", "0");
}

test.beforeEach(async ({ request }) => {
  await waitForIdle(request);
});

test("a revoked key on the first model: the run completes on the second and says so", async ({
  page,
  request,
}) => {
  const first = `revoked-key-${Date.now()}`;
  await scriptLlm(failingFirst(first, 401));
  const id = await startRun(request, everyRole(`openai-compatible:${first},${SECOND}`));
  await expectCompletedOnSecond(page, request, id, first, "auth", {
    notice: "the provider refused the key",
    detail: "HTTP 401: Incorrect API key provided",
  });
});

test("a provider answering 500 to every call: after its retries the run goes on with the second", async ({
  page,
  request,
}) => {
  const first = `outage-${Date.now()}`;
  await scriptLlm(failingFirst(first, 500));
  const id = await startRun(request, everyRole(`openai-compatible:${first},${SECOND}`));
  await expectCompletedOnSecond(page, request, id, first, "unavailable", {
    notice: "the provider stayed unavailable through the retries",
    detail: "HTTP 500: The server had an error",
  });
});

test("a local server refusing json_schema with Ollama's error: the run completes in JSON mode", async ({
  request,
}) => {
  const model = `ollama-0-4-${Date.now()}`;
  await scriptLlm(researchScript({ webUrl: webUrl() }));
  await emulate([{ model, server: "ollama", lacks: ["json_schema"] }]);
  const id = await startRun(request, everyRole(`openai-compatible:${model}`));
  const run = (await waitForStatus(request, id, ["completed", "failed"], 90_000)) as unknown as RunJson;
  expect(run.status).toBe("completed");

  const sent = (await llmRequests()).map((r) => ({
    rule: r.rule,
    status: r.status,
    format: (r.body as { response_format?: { type: string } }).response_format?.type,
  }));
  // One refusal, then every structured call in JSON mode: the model's mode is remembered.
  const refusals = sent.filter((r) => r.rule === "local-server-refusal");
  expect(refusals).toEqual([{ rule: "local-server-refusal", status: 400, format: "json_schema" }]);
  const structured = sent.filter((r) => r.format && r.rule !== "local-server-refusal");
  expect(structured.length).toBeGreaterThanOrEqual(4);
  expect(structured.every((r) => r.format === "json_object" && r.status === 200)).toBe(true);
  // The structured steps were answered by the model, not replaced by their fallbacks.
  expect(new Set(structured.map((r) => r.rule))).toEqual(
    new Set(["plan", "critique", "assessment", "citation-check", "knowledge"]),
  );
  expect(run.directives).toHaveLength(2);
  // Round 1's coverage was assessed by the model, in JSON mode.
  expect(run.supervisionHistory.find((r) => r.round === 1)?.assessment?.method).toBe("llm");
  const events = await storedEvents(id);
  expect(events.filter((e) => e.type === "model.failover")).toEqual([]);
  expect(events.find((e) => e.type === "knowledge.extracted")).toMatchObject({ count: 1 });
});
