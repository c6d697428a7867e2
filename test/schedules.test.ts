// Scheduled refresh in-process, on an embedded database with two accounts: PUT puts one pg-boss
// schedule per report (still there after the runtime restarts), a firing sent through the real
// queue starts a new version, a finished version that differs gives a notice (and none when it
// does not), the owner's limits pause the schedule with their reason, another account gets 404 and
// a read token cannot schedule. Firings are sent to the queue directly: the cron clock is pg-boss's.
import { eq, sql } from "drizzle-orm";
import { createTranslator } from "next-intl";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import type { ErrorTranslator } from "../components/error-text.ts";
import { pausedText } from "../components/schedules/paused-text.ts";
import { createRun } from "../db/queries/runs.ts";
import { saveUserLimits } from "../db/queries/user-limits.ts";
import { createDbRunStore } from "../db/research-store.ts";
import { notifications, runs, sources } from "../db/schema.ts";
import { createRunWriters } from "../lib/jobs/execute-run.ts";
import { getBoss } from "../lib/jobs/queue.ts";
import { getRuntime, stopRuntime } from "../lib/jobs/runtime.ts";
import { SCHEDULE_QUEUE } from "../lib/jobs/schedules/queue.ts";
import { startScheduleWorker } from "../lib/server/schedules/worker.ts";
import { createToken } from "../lib/server/tokens/create.ts";
import de from "../messages/de.json";
import { call, type Person, signUp, signUpInvited, useFreshAppDatabase } from "./support/app-session.ts";
import { EN_REPORT } from "./support/export-cases.ts";
import { makeReportedRun } from "./support/reported-run.ts";

type Handler = Parameters<typeof call>[0];
type Route = typeof import("../app/api/runs/[id]/schedule/route.ts");
let stopApp: () => Promise<void>;
let alice: Person;
let bob: Person;
let route: Route;
let notices: { GET: Handler; read: Handler };
let first: string;

beforeAll(async () => {
  stopApp = await useFreshAppDatabase("pglite");
  process.env.RATE_LIMIT_RUNS_PER_MINUTE = "1000";
  alice = await signUp("alice@example.org");
  bob = await signUpInvited(alice, "bob@example.org");
  route = await import("../app/api/runs/[id]/schedule/route.ts");
  notices = {
    GET: (await import("../app/api/notifications/route.ts")).GET as Handler,
    read: (await import("../app/api/notifications/read/route.ts")).POST as Handler,
  };
  first = (await makeReportedRun(await getRuntime(), alice.userId)).runId;
}, 60_000);
afterAll(async () => {
  delete process.env.RATE_LIMIT_RUNS_PER_MINUTE;
  await stopApp();
});

const schedule = (
  method: string,
  id: string,
  opts: { who?: Person; body?: unknown; headers?: Record<string, string> } = {},
) =>
  call(route[method as "PUT"] as Handler, method, `/api/runs/${id}/schedule`, {
    who: alice,
    params: { id },
    ...opts,
  });

async function bossSchedules(): Promise<{ key: string; cron: string }[]> {
  const db = (await getRuntime()).handle.db;
  const rows = await db.execute(sql`select key, cron from pgboss.schedule where name = ${SCHEDULE_QUEUE}`);
  return (rows as unknown as { rows?: { key: string; cron: string }[] }).rows ?? (rows as never);
}

async function versionsOf(reportId: string) {
  const db = (await getRuntime()).handle.db;
  return db.select().from(runs).where(eq(runs.versionOf, reportId));
}

/** One firing of the report's schedule, through the queue and the schedule worker. */
async function fire(reportId: string): Promise<void> {
  const rt = await getRuntime();
  const boss = await getBoss(rt.handle);
  const worker = await startScheduleWorker(rt, { pollSeconds: 0.5 });
  try {
    const id = await boss.send(SCHEDULE_QUEUE, { reportId });
    await vi.waitFor(
      async () => expect((await boss.getJobById(SCHEDULE_QUEUE, id as string))?.state).toBe("completed"),
      { timeout: 20_000, interval: 200 },
    );
  } finally {
    await worker.stop();
  }
}

describe("PUT/GET/DELETE /api/runs/:id/schedule", () => {
  it("puts one pg-boss schedule per report, kept when the runtime restarts", async () => {
    const res = await schedule("PUT", first, { body: { every: "week" } });
    expect(res.status).toBe(200);
    const { schedule: s } = await res.json();
    expect(s).toMatchObject({ reportId: first, every: "week", pausedReason: null });
    expect(Date.parse(s.nextRunAt)).toBeGreaterThan(Date.now());
    expect(Date.parse(s.nextRunAt)).toBeLessThanOrEqual(Date.now() + 7 * 86_400_000);
    // A new interval replaces the old one: still one schedule.
    expect((await schedule("PUT", first, { body: { every: "day" } })).status).toBe(200);
    expect(await bossSchedules()).toEqual([
      { key: first, cron: expect.stringMatching(/^\d+ \d+ \* \* \*$/) },
    ]);

    await stopRuntime();
    await getRuntime({ startWorker: false });
    expect(await bossSchedules()).toEqual([
      { key: first, cron: expect.stringMatching(/^\d+ \d+ \* \* \*$/) },
    ]);
    const got = await schedule("GET", first);
    expect((await got.json()).schedule).toMatchObject({ reportId: first, every: "day" });
  }, 60_000);

  it("refuses a bad body (400/422), another account (404) and a read token, changing nothing", async () => {
    expect((await schedule("PUT", first, { body: { every: "hour" } })).status).toBe(422);
    expect((await schedule("PUT", first, { body: "{" })).status).toBe(400);
    for (const method of ["GET", "PUT", "DELETE"]) {
      const res = await schedule(method, first, {
        who: bob,
        body: method === "PUT" ? { every: "month" } : undefined,
      });
      expect(res.status).toBe(404);
    }
    const { secret } = await createToken(
      await getRuntime(),
      { userId: alice.userId, role: "user" },
      { name: "reader", scope: "read" },
    );
    const headers = { authorization: `Bearer ${secret}` };
    expect((await schedule("PUT", first, { who: undefined, headers, body: { every: "month" } })).status).toBe(
      403,
    );
    expect((await schedule("DELETE", first, { who: undefined, headers })).status).toBe(403);
    expect((await schedule("GET", first, { who: undefined, headers })).status).toBe(200);
    expect(await bossSchedules()).toEqual([
      { key: first, cron: expect.stringMatching(/^\d+ \d+ \* \* \*$/) },
    ]);
  });
});

describe("a firing through the queue", () => {
  it("starts a new version of the report, seeded with its sources", async () => {
    await fire(first);
    const [version] = await versionsOf(first);
    expect(version).toMatchObject({ question: "Do heat pumps work in cold climates?", versionOf: first });
    const db = (await getRuntime()).handle.db;
    const seeded = await db.select().from(sources).where(eq(sources.runId, version.id));
    expect(seeded.map((s) => s.url).sort()).toContain("https://study.example/nordic");
    const got = await (await schedule("GET", first)).json();
    expect(got.schedule).toMatchObject({ lastRunId: version.id, pausedReason: null });
  }, 60_000);

  it("gives the owner a notice when the finished version differs, and marks it read", async () => {
    const rt = await getRuntime();
    const [version] = await versionsOf(first);
    await finishVersion(
      version.id,
      EN_REPORT.replace("| Cold climate | 2.8 [2] |", "| Cold climate | 2.5 [2] |"),
    );
    const res = await call(notices.GET, "GET", "/api/notifications", { who: alice });
    const list = await res.json();
    expect(list.unread).toBe(1);
    expect(list.notifications[0]).toMatchObject({
      kind: "version_ready",
      runId: version.id,
      data: { reportId: first, previousRunId: first, diff: { claims: { changed: 1 } } },
    });
    const bobs = await (await call(notices.GET, "GET", "/api/notifications", { who: bob })).json();
    expect(bobs).toEqual({ unread: 0, notifications: [] });
    const marked = await call(notices.read, "POST", "/api/notifications/read", { who: alice, body: {} });
    expect(await marked.json()).toEqual({ marked: 1 });
    expect((await (await call(notices.GET, "GET", "/api/notifications", { who: alice })).json()).unread).toBe(
      0,
    );
    void rt;
  }, 60_000);

  it("gives no notice when the new version says the same", async () => {
    await fire(first);
    const versions = await versionsOf(first);
    expect(versions).toHaveLength(2);
    await finishVersion(
      versions[1].id,
      EN_REPORT.replace("| Cold climate | 2.8 [2] |", "| Cold climate | 2.5 [2] |"),
    );
    const db = (await getRuntime()).handle.db;
    expect(await db.select().from(notifications).where(eq(notifications.runId, versions[1].id))).toEqual([]);
  }, 60_000);

  it("pauses with the reason when the owner's limits say no, with one notice; removing it unschedules", async () => {
    const db = (await getRuntime()).handle.db;
    await saveUserLimits(db, alice.userId, { maxConcurrentRuns: 1, monthlyCostLimitUsd: null });
    await createRun(db, { ownerId: alice.userId, question: "Something else entirely?", settings: {} });
    await fire(first);
    await fire(first);
    expect(await versionsOf(first)).toHaveLength(2);
    const got = (await (await schedule("GET", first)).json()).schedule;
    expect(got.pausedReason).toMatch(/your limit is 1/);
    const paused = await db.select().from(notifications).where(eq(notifications.kind, "schedule_paused"));
    expect(paused).toHaveLength(1);
    expect(paused[0]).toMatchObject({ ownerId: alice.userId, runId: first });
    // Kept as the error it was, so the page and the bell say it in the reader's language.
    expect(got.pausedError).toMatchObject({ code: "rate_limited", details: { maxConcurrentRuns: 1 } });
    expect(paused[0].data).toMatchObject({ reason: got.pausedReason, ...got.pausedError });
    const german = createTranslator({ locale: "de", messages: de, namespace: "errors" });
    const said = pausedText(got.pausedReason, got.pausedError, "de", german as unknown as ErrorTranslator);
    expect(said).not.toBe(got.pausedReason);
    expect(said).toMatch(/1/);

    const res = await schedule("DELETE", first);
    expect(await res.json()).toEqual({ removed: true });
    expect(await bossSchedules()).toEqual([]);
    expect((await (await schedule("GET", first)).json()).schedule).toBeNull();
  }, 60_000);
});

/** Ends the version as the worker does (its terminal transaction), with `markdown` as its report. */
async function finishVersion(runId: string, markdown: string): Promise<void> {
  const rt = await getRuntime();
  const db = rt.handle.db;
  const own = await db.select().from(sources).where(eq(sources.runId, runId));
  const byUrl = (url: string) => own.find((s) => s.url === url)?.id as string;
  const store = createDbRunStore(db, runId);
  await store.saveReport({ markdown, partial: false, citationStats: {} });
  await store.saveCitations(
    ["https://energy.example/guide", "https://study.example/nordic", "https://survey.example/installers"].map(
      (url, i) => ({
        number: i + 1,
        sourceId: byUrl(url),
        sentence: "A claim.",
        support: "supported" as const,
        reason: "lexical",
        passage: "A passage.",
      }),
    ),
  );
  const { store: writer } = createRunWriters(db, rt.bus, runId, await getBoss(rt.handle));
  await writer.finishRun({ type: "run.completed", sources: 3, citations: 3, partial: false });
}
