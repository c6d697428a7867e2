import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { DatabaseHandle } from "../../db/client.ts";
import { createRun, getRun } from "../../db/queries/runs.ts";
import { createDbRunStore } from "../../db/research-store.ts";
import { apiError, scriptedModel, textResult } from "../../test/support/ai-mocks.ts";
import { captureLogs } from "../../test/support/capture-logs.ts";
import { closeDatabaseWithBus, openDatabaseWithBus } from "../../test/support/run-bus-db.ts";
import { createModelRegistry } from "../ai/registry.ts";
import type { RunBus } from "./bus.ts";
import { createEngineDeps } from "./engine-deps.ts";
import { executeRun } from "./execute-run.ts";

let h: DatabaseHandle;
let bus: RunBus;
beforeAll(async () => {
  ({ h, bus } = await openDatabaseWithBus());
}, 60_000);
afterAll(() => closeDatabaseWithBus(h, bus));

/** Collects the process's unhandled rejections while `fn` runs and a moment after. */
async function unhandledDuring(fn: () => Promise<unknown>): Promise<unknown[]> {
  const seen: unknown[] = [];
  const listener = (reason: unknown) => seen.push(reason);
  process.on("unhandledRejection", listener);
  try {
    await fn();
    await new Promise((r) => setTimeout(r, 50));
  } finally {
    process.off("unhandledRejection", listener);
  }
  return seen;
}

describe("createEngineDeps", () => {
  it("a model.retry event that cannot be written is logged, never an unhandled rejection", async () => {
    const run = await createRun(h.db, { ownerId: "o", question: "Retry?", settings: {} });
    const model = scriptedModel([
      apiError({ status: 429, body: { error: { message: "slow down" } } }),
      textResult("ok"),
    ]);
    const deps = createEngineDeps({
      db: h.db,
      run,
      store: createDbRunStore(h.db, run.id),
      events: { emit: async () => Promise.reject(new Error("the event store is down")) },
      signal: new AbortController().signal,
      env: { SEARCH_PROVIDERS: "library" },
      registry: createModelRegistry({
        env: { MODEL: "mock:m" },
        providerFactories: { mock: () => model },
        sleep: async () => {},
      }),
    });
    const logs = captureLogs();
    let answer = "";
    const unhandled = await unhandledDuring(async () => {
      answer = (await deps.models.text("supervisor", { prompt: "Say ok." })).text;
    });
    logs.restore();
    const line = logs.lines.find((l) => String(l.msg).includes("model.retry"));
    expect(line).toMatchObject({ level: 50, err: { message: expect.any(String) } });
    expect(unhandled).toEqual([]);
    expect(answer).toBe("ok");
  });
});

/**
 * An OpenAI-compatible endpoint that counts the calls it is answering at once. Each call is held a
 * moment, then refused with a 400 (not retried): the runs end quickly, and their calls overlap
 * unless something keeps them apart.
 */
async function countingModelServer(holdMs: number) {
  let active = 0;
  let peak = 0;
  let total = 0;
  const server = http.createServer((req, res) => {
    req.resume();
    req.on("end", () => {
      active += 1;
      total += 1;
      peak = Math.max(peak, active);
      setTimeout(() => {
        active -= 1;
        res.writeHead(400, { "content-type": "application/json" });
        res.end(
          JSON.stringify({ error: { message: "refused by the test server", type: "invalid_request_error" } }),
        );
      }, holdMs);
    });
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  const port = (server.address() as AddressInfo).port;
  return {
    url: `http://127.0.0.1:${port}/v1`,
    stats: () => ({ peak, total }),
    close: () => new Promise<void>((r) => server.close(() => r())),
  };
}

describe("MODEL_MAX_CONCURRENCY", () => {
  it("limits the model calls of every run a process executes together, not of each run", async () => {
    const server = await countingModelServer(150);
    const env = {
      MODEL: "openai-compatible:m",
      OPENAI_COMPATIBLE_BASE_URL: server.url,
      MODEL_MAX_CONCURRENCY: "1",
      MODEL_MAX_RETRIES: "0",
      SEARCH_PROVIDERS: "library",
    };
    const runs = await Promise.all(
      [1, 2].map((n) => createRun(h.db, { ownerId: "o", question: `Concurrent run ${n}?`, settings: {} })),
    );
    const logs = captureLogs();
    try {
      const outcomes = await Promise.all(
        runs.map((run) =>
          executeRun({ handle: h, bus, runId: run.id, workerSignal: new AbortController().signal, env }),
        ),
      );
      for (const o of outcomes) expect(["completed", "failed"]).toContain(o.status);
    } finally {
      logs.restore();
      await server.close();
    }
    const { peak, total } = server.stats();
    // Both runs called the model, and never more than one call was in flight between them.
    expect(total).toBeGreaterThanOrEqual(2);
    expect(peak).toBe(1);
    for (const run of runs) expect(["completed", "failed"]).toContain((await getRun(h.db, run.id))?.status);
  });
});
