import { expect, test } from "@playwright/test";
import { expectApiError, MISSING_RUN_ID, readRunEvents } from "./support/contract.ts";
import { sessionHeaders, sharedApp, signedOut } from "./support/session.ts";

test("the HTTP contract holds for health, bad requests and unknown runs", async ({ request }) => {
  const health = await request.get("/api/health");
  expect(health.status()).toBe(200);
  expect(health.headers()["content-type"]).toMatch(/^application\/json/);
  expect(await health.json()).toEqual(expect.any(Object));

  for (const [label, body] of [
    ["an empty object", "{}"],
    ["malformed JSON", "{"],
    ["a question of the wrong type", '{"question": 42}'],
    ["an empty question", '{"question": ""}'],
  ]) {
    const r = await request.post("/api/runs", {
      data: body,
      headers: { "content-type": "application/json" },
    });
    await expectApiError(r, `POST /api/runs with ${label}`);
  }

  for (const path of [
    `/api/runs/${MISSING_RUN_ID}`,
    `/api/runs/${MISSING_RUN_ID}/events`,
    `/api/runs/${MISSING_RUN_ID}/report.md`,
  ]) {
    const error = await expectApiError(await request.get(path), `GET ${path}`, 404);
    expect(error.code, path).toBe("not_found");
  }
  const notAnId = await expectApiError(
    await request.get("/api/runs/not-an-id"),
    "GET /api/runs/not-an-id",
    400,
  );
  expect(notAnId.code).toBe("bad_request");
  // The stream of an unknown run is refused before any stream starts.
  const stream = await readRunEvents(MISSING_RUN_ID);
  expect(stream.status).toBe(404);
  expect(stream.contentType).toMatch(/^application\/json/);
});

test("bad run requests get contract-shaped errors and change nothing", async ({ request }) => {
  const before = (await (await request.get("/api/runs")).json()).runs.length;
  for (const body of [
    "{}",
    "{",
    '{"question": 42}',
    '{"question": ""}',
    '{"question":"ok?","settings":{"x":1}}',
  ]) {
    const r = await request.post("/api/runs", {
      data: body,
      headers: { "content-type": "application/json" },
    });
    expect(r.status(), body).toBeGreaterThanOrEqual(400);
    expect(r.status(), body).toBeLessThan(500);
    const json = await r.json();
    expect(typeof json.error.code).toBe("string");
    expect(typeof json.error.message).toBe("string");
  }
  expect((await (await request.get("/api/runs")).json()).runs.length).toBe(before);
  const notId = await request.get("/api/runs/not-an-id");
  expect(notId.status()).toBe(400);
  expect((await notId.json()).error.code).toBe("bad_request");
});

test("a created run is listed, readable, and streams its stored events with ids", async ({ request }) => {
  const created = await request.post("/api/runs", { data: { question: "What is a heat pump's COP?" } });
  expect(created.status()).toBe(201);
  const { id } = await created.json();
  const run = await (await request.get(`/api/runs/${id}`)).json();
  for (const key of [
    "id",
    "question",
    "status",
    "phase",
    "brief",
    "directives",
    "coverage",
    "supervisionHistory",
  ]) {
    expect(run).toHaveProperty(key);
  }
  for (const key of ["sources", "report", "usage", "error"]) expect(run).toHaveProperty(key);
  expect(["queued", "running", "failed"]).toContain(run.status);
  const ctrl = new AbortController();
  const app = sharedApp();
  const r = await fetch(`${app.url}/api/runs/${id}/events`, {
    signal: ctrl.signal,
    headers: sessionHeaders(app),
  });
  expect(r.headers.get("content-type")).toMatch(/^text\/event-stream/);
  const reader = r.body!.getReader();
  let text = "";
  while (!text.includes("\n\n") || !/^id: 1$/m.test(text)) {
    const { value, done } = await reader.read();
    if (done) break;
    text += new TextDecoder().decode(value);
  }
  ctrl.abort();
  expect(text).toMatch(/^id: 1\nevent: run\.created\ndata: \{.*"question":"What is a heat pump's COP\?"/m);
  const report = await request.get(`/api/runs/${id}/report.md`);
  expect(report.status()).toBe(404);
});

test("static assets: the icon is served and linked, and robots are kept out", async ({ page, request }) => {
  const robots = await request.get("/robots.txt");
  expect(robots.status()).toBe(200);
  expect(robots.headers()["content-type"]).toMatch(/^text\/plain/);
  expect(await robots.text()).toMatch(/^User-agent: \*\nDisallow: \/$/m);

  const icon = await request.get("/icon.svg");
  expect(icon.status()).toBe(200);
  expect(icon.headers()["content-type"]).toMatch(/^image\/svg\+xml/);
  expect(await icon.text()).toMatch(/^<svg [^>]*xmlns="http:\/\/www\.w3\.org\/2000\/svg"/);

  await page.goto("/");
  await expect(page.locator('head link[rel="icon"]')).toHaveAttribute("href", "/icon.svg");
});

test("without a session every private route answers 401 and pages send the person to sign in", async ({
  playwright,
  browser,
  request,
}) => {
  const { url } = sharedApp();
  const anonymous = await playwright.request.newContext({ baseURL: url, storageState: signedOut });
  try {
    const runId = (
      await (await request.post("/api/runs", { data: { question: "Whose run is this?" } })).json()
    ).id;
    for (const [method, path, data] of [
      ["GET", "/api/runs"],
      ["POST", "/api/runs", { question: "Anonymous question?" }],
      ["GET", `/api/runs/${runId}`],
      ["GET", `/api/runs/${runId}/events`],
      ["GET", `/api/runs/${runId}/report.md`],
      ["POST", `/api/runs/${runId}/cancel`],
      ["GET", "/api/knowledge"],
      ["POST", "/api/knowledge", { category: "lesson", content: "Anonymous knowledge." }],
      ["GET", "/api/library"],
      ["GET", "/api/invitations"],
    ] as const) {
      const label = `anonymous ${method} ${path}`;
      const error = await expectApiError(await anonymous.fetch(path, { method, data }), label, 401);
      expect(error.code, label).toBe("unauthorized");
    }
    // Liveness stays public, and the run is untouched.
    expect((await anonymous.get("/api/health")).status()).toBe(200);
    const run = await (await request.get(`/api/runs/${runId}`)).json();
    expect(run.status).not.toBe("cancelled");
  } finally {
    await anonymous.dispose();
  }

  const context = await browser.newContext({ storageState: signedOut });
  try {
    const page = await context.newPage();
    for (const path of ["/", "/knowledge", "/library", "/account", "/admin"]) {
      await page.goto(path);
      // Sign-in brings the person back to the page they asked for (home needs no ?next=).
      await expect(page, path).toHaveURL(
        path === "/" ? "/sign-in" : `/sign-in?next=${encodeURIComponent(path)}`,
      );
    }
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("Sign in");
  } finally {
    await context.close();
  }
});
