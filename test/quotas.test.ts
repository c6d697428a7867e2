// Per-person storage quotas through the real route handlers, on both databases: library text
// (QUOTA_LIBRARY_MB) and the page text runs keep (QUOTA_SOURCE_TEXT_MB). A document that would pass
// the library's quota is refused 413 naming the variable, a full library before its body is read;
// a run is refused while the source text is at its quota; GET /api/account/usage and the account
// page show used of limit. Then a run that reaches its quota while it researches stops: `failed`,
// with the reason naming the variable, and no page text stored past it.
import { createElement } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { StoragePanel } from "../components/account/storage-panel.tsx";
import type { DatabaseHandle } from "../db/client.ts";
import { listEventsAfter } from "../db/queries/events.ts";
import { insertLibraryDocument } from "../db/queries/library.ts";
import { libraryBytesOf, sourceTextBytesOf } from "../db/queries/quotas.ts";
import { createRun, getRun } from "../db/queries/runs.ts";
import { sources } from "../db/schema.ts";
import { createModelRegistry } from "../lib/ai/registry.ts";
import type { RunBus } from "../lib/jobs/bus.ts";
import { executeRun } from "../lib/jobs/execute-run.ts";
import { quotasFromEnv } from "../lib/jobs/quotas.ts";
import { getRuntime } from "../lib/jobs/runtime.ts";
import { appDatabaseKinds, call, type Person, signUp, useFreshAppDatabase } from "./support/app-session.ts";
import { type Scenario, scenarioModel } from "./support/engine-harness.ts";
import { withMessages } from "./support/intl.ts";
import { closeDatabaseWithBus, openDatabaseWithBus } from "./support/run-bus-db.ts";

type Handler = Parameters<typeof call>[0];

const KB = 1024;
// 10 KB each: QUOTA_*_MB take fractions of a megabyte.
const quotaEnv = { QUOTA_LIBRARY_MB: String(10 / 1024), QUOTA_SOURCE_TEXT_MB: String(10 / 1024) };

describe("quota settings", () => {
  it("default to 200 MB of library and 1000 MB of source text; 0 turns one off; a typo stops", () => {
    expect(quotasFromEnv({})).toEqual({ library: 200 * KB * KB, sourceText: 1000 * KB * KB });
    expect(quotasFromEnv({ QUOTA_LIBRARY_MB: "0", QUOTA_SOURCE_TEXT_MB: "2.5" })).toEqual({
      library: 0,
      sourceText: 2.5 * KB * KB,
    });
    expect(() => quotasFromEnv({ QUOTA_LIBRARY_MB: "lots" })).toThrow(/QUOTA_LIBRARY_MB/);
  });
});

describe.each(appDatabaseKinds())("storage quotas (%s)", { timeout: 120_000 }, (kind) => {
  let stopApp: () => Promise<void>;
  let alice: Person;
  let addDocument: Handler;
  let createRunRoute: Handler;
  let usage: Handler;

  beforeAll(async () => {
    stopApp = await useFreshAppDatabase(kind);
    Object.assign(process.env, quotaEnv);
    alice = await signUp("alice@example.org");
    addDocument = (await import("../app/api/library/route.ts")).POST as Handler;
    createRunRoute = (await import("../app/api/runs/route.ts")).POST as Handler;
    usage = (await import("../app/api/account/usage/route.ts")).GET as Handler;
  }, 120_000);
  afterAll(async () => {
    for (const name of Object.keys(quotaEnv)) delete process.env[name];
    await stopApp();
  });

  const addText = (bytes: number, body?: string) =>
    call(addDocument, "POST", "/api/library", {
      who: alice,
      body: body ?? { text: "x".repeat(bytes), format: "text" },
    });

  it("refuses a library document that would pass QUOTA_LIBRARY_MB, and a full library before reading", async () => {
    expect((await addText(6 * KB)).status).toBe(201);
    const refused = await addText(6 * KB);
    expect(refused.status).toBe(413);
    const { error } = await refused.json();
    expect(error).toMatchObject({
      code: "quota_exceeded",
      details: { quota: "library", variable: "QUOTA_LIBRARY_MB", usedBytes: 6 * KB, addingBytes: 6 * KB },
    });
    expect(error.message).toBe(
      "Your library's text would pass its limit of 10 KB (QUOTA_LIBRARY_MB): 6 KB is stored and this adds 6 KB. Delete documents you no longer need, or ask the operator to raise the limit.",
    );
    expect((await addText(4 * KB)).status).toBe(201);

    const { db } = (await getRuntime()).handle;
    await insertLibraryDocument(db, {
      ownerId: alice.userId,
      title: "Fills it",
      sourceUrl: null,
      mimeType: "text/plain",
      content: "y".repeat(KB),
    });
    expect(await libraryBytesOf(db, alice.userId)).toBe(11 * KB);
    // Not even read: a body that is not JSON gets the quota's answer, not a parse error.
    const full = await addText(0, "this is not json");
    expect(full.status).toBe(413);
    expect((await full.json()).error.message).toMatch(/^Your library's text has reached its limit of 10 KB/);
  });

  it("refuses a new run while the page text of the person's runs is at QUOTA_SOURCE_TEXT_MB", async () => {
    const { db } = (await getRuntime()).handle;
    const earlier = await createRun(db, { ownerId: alice.userId, question: "Earlier?", settings: {} });
    await db.insert(sources).values({
      runId: earlier.id,
      url: "https://a.example/long",
      normalizedUrl: "https://a.example/long",
      content: "é".repeat(5 * KB),
    });
    expect(await sourceTextBytesOf(db, alice.userId)).toBe(10 * KB);
    const res = await call(createRunRoute, "POST", "/api/runs", {
      who: alice,
      body: { question: "How do heat pumps work?" },
    });
    expect(res.status).toBe(413);
    expect((await res.json()).error).toMatchObject({
      code: "quota_exceeded",
      message: expect.stringContaining("(QUOTA_SOURCE_TEXT_MB): 10 KB is stored. Delete runs"),
      details: { quota: "sourceText", variable: "QUOTA_SOURCE_TEXT_MB" },
    });
  });

  it("shows what is used of each limit in GET /api/account/usage and on the account page", async () => {
    const res = await call(usage, "GET", "/api/account/usage", { who: alice });
    const { storage } = await res.json();
    const limit = Math.round(10 * KB);
    expect(storage).toEqual({
      library: { usedBytes: 11 * KB, limitBytes: limit, variable: "QUOTA_LIBRARY_MB" },
      sourceText: { usedBytes: 10 * KB, limitBytes: limit, variable: "QUOTA_SOURCE_TEXT_MB" },
    });
    const html = renderToStaticMarkup(withMessages(createElement(StoragePanel, { storage })));
    expect(html).toContain("11 KB of 10 KB used");
    expect(html).toContain("Full. Delete documents to make room.");
    expect(html).toContain("The limit is set by QUOTA_SOURCE_TEXT_MB.");
  });
});

const TITLE = "Ground temperature and heat pumps";
const SCENARIO: Scenario = {
  question: "How warm is the ground a few metres down?",
  brief: "I want to know the ground temperature a few metres down and what it means for heat pumps.",
  docs: [
    {
      key: "ground",
      title: TITLE,
      content: `A few metres below the surface the ground stays at about 10 °C all year. ${"Measured in boreholes. ".repeat(60)}`,
    },
  ],
  directives: [
    {
      topic: "Temperature of the ground a few metres below the surface through the year.",
      query: "ground temperature",
      read: TITLE,
      evidence: "stays at about 10 °C all year",
      findings: (n) => `The ground stays at about 10 °C all year [${n}].`,
    },
  ],
  report: () => "unused: the run stops before the report",
  knowledge: () => ({ items: [] }),
};

describe("a run that reaches QUOTA_SOURCE_TEXT_MB while it researches", () => {
  let h: DatabaseHandle;
  let bus: RunBus;
  beforeAll(async () => {
    ({ h, bus } = await openDatabaseWithBus());
  });
  afterAll(() => closeDatabaseWithBus(h, bus));

  it("stops: failed with the reason naming the variable, and nothing stored past the quota", async () => {
    const ownerId = "quota-owner";
    for (const d of SCENARIO.docs) {
      await insertLibraryDocument(h.db, {
        ownerId,
        title: d.title,
        sourceUrl: null,
        mimeType: "text/plain",
        content: d.content,
      });
    }
    const earlier = await createRun(h.db, { ownerId, question: "Earlier?", settings: {} });
    await h.db.insert(sources).values({
      runId: earlier.id,
      url: "https://a.example/kept",
      normalizedUrl: "https://a.example/kept",
      content: "k".repeat(9 * KB),
    });
    const run = await createRun(h.db, { ownerId, question: SCENARIO.question, settings: {} });
    const mock = scenarioModel(SCENARIO);
    const outcome = await executeRun({
      handle: h,
      bus,
      runId: run.id,
      workerSignal: new AbortController().signal,
      env: { SEARCH_PROVIDERS: "library", ...quotaEnv },
      registry: createModelRegistry({
        env: { MODEL: "mock:m" },
        providerFactories: { mock: () => mock.model },
        settings: { retry: { maxAttempts: 1 }, timeoutMs: 10_000 },
        sleep: async () => {},
      }),
    });

    expect(outcome.status).toBe("failed");
    const row = await getRun(h.db, run.id);
    expect(row?.status).toBe("failed");
    expect(row?.error).toMatch(
      /^The run stopped storing page text: The page text your runs keep as sources would pass its limit of 10 KB \(QUOTA_SOURCE_TEXT_MB\): 9 KB is stored and this adds \d+ KB\. Delete runs/,
    );
    const events = await listEventsAfter(h.db, run.id, 0);
    expect(events.at(-1)).toMatchObject({ type: "run.failed", payload: { reason: row?.error } });
    // The library hit (with its text) was refused before it was stored.
    expect(await sourceTextBytesOf(h.db, ownerId)).toBe(9 * KB);
  });
});
