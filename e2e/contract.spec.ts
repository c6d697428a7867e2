import { spawnSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { expect, test } from "@playwright/test";

// The shared contract checker lives beside the repository (../shared), as on every clone CI makes.
const checker = path.resolve(import.meta.dirname, "..", "..", "shared", "contract-check.mjs");

test("the app passes the shared HTTP contract check (no-model part)", async () => {
  expect(fs.existsSync(checker), `contract checker expected at ${checker}`).toBe(true);
  const r = spawnSync(process.execPath, [checker, process.env.E2E_BASE_URL ?? ""], { encoding: "utf8" });
  expect(r.stdout, r.stdout + r.stderr).toMatch(/^\d+ passed, 0 failed$/m);
  expect(r.status).toBe(0);
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
  const r = await fetch(`${process.env.E2E_BASE_URL}/api/runs/${id}/events`, { signal: ctrl.signal });
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
