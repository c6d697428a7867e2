// Per-person limits, usage and the admin's system overview (which shows no one's questions) through the real route handlers, with
// better-auth accounts on a fresh database: an admin sets a person's limits; run creation refuses
// past them (429, nothing created) and lowers the cost budget to what is left of the month; the
// person's usage sums runs.usage by day and role; the system overview lists unfinished runs,
// failures with reasons and model retries; non-admins get 404 for the admin APIs.
import { and, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { appendEvent } from "../db/queries/events.ts";
import { createRun, saveRunUsage } from "../db/queries/runs.ts";
import { runs } from "../db/schema.ts";
import { getRuntime } from "../lib/jobs/runtime.ts";
import { monthStartUtc } from "../lib/server/accounts/limits.ts";
import {
  appDatabaseKinds,
  call,
  type Person,
  signUp,
  signUpInvited,
  useFreshAppDatabase,
} from "./support/app-session.ts";

type Handler = Parameters<typeof call>[0];

const usage = (cost: number, byRole: Record<string, { calls: number; tokens: number; cost: number }>) => {
  const totals = (calls: number, tokens: number, costUsd: number) => ({
    inputTokens: tokens,
    outputTokens: 0,
    cachedInputTokens: 0,
    reasoningTokens: 0,
    totalTokens: tokens,
    calls,
    costUsd,
    unpricedCalls: 0,
    unpricedTokens: 0,
  });
  const roles = Object.entries(byRole);
  return {
    total: totals(
      roles.reduce((n, [, r]) => n + r.calls, 0),
      roles.reduce((n, [, r]) => n + r.tokens, 0),
      cost,
    ),
    byRole: Object.fromEntries(roles.map(([k, r]) => [k, totals(r.calls, r.tokens, r.cost)])),
    byModel: {},
  };
};

async function errorOf(res: Response) {
  return ((await res.json()) as { error: { code: string; message: string } }).error;
}

describe.each(appDatabaseKinds())("user limits, usage and system (%s)", { timeout: 120_000 }, (kind) => {
  let stopApp: () => Promise<void>;
  let alice: Person;
  let bob: Person;
  let carol: Person;
  let putLimits: Handler;
  let postRun: Handler;
  let getUsage: Handler;
  let getSystem: Handler;
  const db = async () => (await getRuntime()).handle.db;

  beforeAll(async () => {
    stopApp = await useFreshAppDatabase(kind);
    alice = await signUp("alice@example.org");
    bob = await signUpInvited(alice, "bob@example.org");
    carol = await signUpInvited(alice, "carol@example.org");
    putLimits = (await import("../app/api/admin/users/[id]/limits/route.ts")).PUT as Handler;
    postRun = (await import("../app/api/runs/route.ts")).POST as Handler;
    getUsage = (await import("../app/api/account/usage/route.ts")).GET as Handler;
    getSystem = (await import("../app/api/admin/system/route.ts")).GET as Handler;
  }, 240_000);
  afterAll(async () => stopApp());

  const setLimits = (who: Person, userId: string, body: unknown) =>
    call(putLimits, "PUT", `/api/admin/users/${userId}/limits`, { who, body, params: { id: userId } });
  const newRun = (who: Person, settings: Record<string, unknown> = {}) =>
    call(postRun, "POST", "/api/runs", { who, body: { question: "Are heat pumps efficient?", settings } });
  const runCount = async (ownerId: string) =>
    (await (await db()).select({ id: runs.id }).from(runs).where(eq(runs.ownerId, ownerId))).length;
  const endRun = async (
    id: string,
    status: "completed" | "failed",
    extra: Partial<typeof runs.$inferInsert> = {},
  ) =>
    (await db())
      .update(runs)
      .set({ status, finishedAt: new Date(), ...extra })
      .where(eq(runs.id, id));

  it("refuses limits to non-admins and unknown accounts (404) and bad values (422)", async () => {
    const asBob = await setLimits(bob, bob.userId, { maxConcurrentRuns: 9, monthlyCostLimitUsd: null });
    expect(asBob.status).toBe(404);
    expect((await errorOf(asBob)).code).toBe("not_found");
    expect(
      (await setLimits(alice, "no-such-user", { maxConcurrentRuns: 1, monthlyCostLimitUsd: null })).status,
    ).toBe(404);
    const bad = await setLimits(alice, bob.userId, { maxConcurrentRuns: 0, monthlyCostLimitUsd: -1 });
    expect(bad.status).toBe(422);
    expect((await errorOf(bad)).message).toContain("maxConcurrentRuns");
  });

  it("refuses a run past the person's concurrent-run limit with 429 and creates nothing", async () => {
    const set = await setLimits(alice, bob.userId, { maxConcurrentRuns: 1, monthlyCostLimitUsd: null });
    expect(set.status).toBe(200);
    expect((await set.json()).limits).toMatchObject({ userId: bob.userId, maxConcurrentRuns: 1 });
    const first = await newRun(bob);
    expect(first.status).toBe(201);
    const before = await runCount(bob.userId);
    const second = await newRun(bob);
    expect(second.status).toBe(429);
    const err = await errorOf(second);
    expect(err.code).toBe("rate_limited");
    expect(err.message).toBe(
      "You have 1 run in progress (your limit is 1). Wait for one to finish, or cancel one.",
    );
    expect(await runCount(bob.userId)).toBe(before);
    // Others are not held to bob's limit.
    expect((await newRun(carol)).status).toBe(201);
    const { id } = (await first.json()) as { id: string };
    await endRun(id, "completed");
    expect((await newRun(bob)).status).toBe(201);
  });

  it("caps the run's budget to what is left of the month, and refuses once the month's cost reaches the limit", async () => {
    const d = await db();
    await d.update(runs).set({ status: "cancelled" }).where(eq(runs.ownerId, bob.userId));
    expect(
      (await setLimits(alice, bob.userId, { maxConcurrentRuns: null, monthlyCostLimitUsd: 1 })).status,
    ).toBe(200);
    const [spent] = await d.select().from(runs).where(eq(runs.ownerId, bob.userId)).limit(1);
    await saveRunUsage(d, spent.id, usage(0.4, { researcher: { calls: 2, tokens: 100, cost: 0.4 } }));
    // Last month's spending does not count against this month.
    const old = await createRun(d, { ownerId: bob.userId, question: "old", settings: {} });
    await saveRunUsage(d, old.id, usage(50, {}));
    await endRun(old.id, "completed", {
      createdAt: new Date(monthStartUtc(new Date()).getTime() - 86_400_000),
    });

    const capped = await newRun(bob, { budget: { maxCostUsd: 3 } });
    expect(capped.status).toBe(201);
    const { id } = (await capped.json()) as { id: string };
    const [row] = await d.select().from(runs).where(eq(runs.id, id));
    expect((row.settings as { budget: { maxCostUsd: number } }).budget.maxCostUsd).toBeCloseTo(0.6, 6);

    await saveRunUsage(d, id, usage(0.7, { synthesis: { calls: 1, tokens: 50, cost: 0.7 } }));
    await endRun(id, "completed");
    const before = await runCount(bob.userId);
    const refused = await newRun(bob);
    expect(refused.status).toBe(429);
    const err = await errorOf(refused);
    expect(err.code).toBe("rate_limited");
    expect(err.message).toContain("Your runs this month have cost $1.10");
    expect(err.message).toContain("monthly limit of $1.00");
    expect(await runCount(bob.userId)).toBe(before);

    // Back to the server's defaults: the run is created again.
    expect(
      (await setLimits(alice, bob.userId, { maxConcurrentRuns: null, monthlyCostLimitUsd: null })).status,
    ).toBe(200);
    expect((await newRun(bob)).status).toBe(201);
  });

  it("sums the person's own usage by day and by role over the last 30 days", async () => {
    const d = await db();
    const now = new Date();
    const today = now.toISOString().slice(0, 10);
    const threeDaysAgo = new Date(now.getTime() - 3 * 86_400_000);
    const a = await createRun(d, { ownerId: carol.userId, question: "a", settings: {} });
    const b = await createRun(d, { ownerId: carol.userId, question: "b", settings: {} });
    const c = await createRun(d, { ownerId: carol.userId, question: "c", settings: {} });
    const tooOld = await createRun(d, { ownerId: carol.userId, question: "d", settings: {} });
    await saveRunUsage(
      d,
      a.id,
      usage(0.25, {
        researcher: { calls: 3, tokens: 300, cost: 0.2 },
        synthesis: { calls: 1, tokens: 40, cost: 0.05 },
      }),
    );
    await saveRunUsage(d, b.id, usage(0.5, { researcher: { calls: 1, tokens: 100, cost: 0.5 } }));
    await saveRunUsage(d, c.id, usage(1, { supervisor: { calls: 2, tokens: 20, cost: 1 } }));
    await saveRunUsage(d, tooOld.id, usage(9, { researcher: { calls: 9, tokens: 900, cost: 9 } }));
    await d.update(runs).set({ createdAt: threeDaysAgo }).where(eq(runs.id, c.id));
    await d
      .update(runs)
      .set({ createdAt: new Date(now.getTime() - 40 * 86_400_000) })
      .where(eq(runs.id, tooOld.id));

    const res = await call(getUsage, "GET", "/api/account/usage", { who: carol });
    expect(res.status).toBe(200);
    const body = (await res.json()) as {
      days: { day: string; runs: number; calls: number; tokens: number; costUsd: number }[];
      byRole: { role: string; calls: number; tokens: number; costUsd: number }[];
      total: { costUsd: number; runs: number };
    };
    expect(body.days).toHaveLength(30);
    expect(body.days.at(-1)?.day).toBe(today);
    // Today: a, b and the run carol started through the API (no usage yet).
    expect(body.days.at(-1)).toMatchObject({ runs: 3, calls: 5, tokens: 440 });
    expect(body.days.at(-1)?.costUsd).toBeCloseTo(0.75, 6);
    expect(body.days.find((x) => x.day === threeDaysAgo.toISOString().slice(0, 10))?.costUsd).toBeCloseTo(
      1,
      6,
    );
    expect(body.total.costUsd).toBeCloseTo(1.75, 6);
    const role = (name: string) => body.byRole.find((r) => r.role === name);
    expect(role("researcher")).toMatchObject({ calls: 4, tokens: 400 });
    expect(role("researcher")?.costUsd).toBeCloseTo(0.7, 6);
    expect(role("supervisor")?.costUsd).toBeCloseTo(1, 6);
    expect(role("synthesis")?.calls).toBe(1);
    // Only carol's own runs: bob's researcher spending is not in her figures.
    expect(body.byRole.map((r) => r.role).sort()).toEqual(["researcher", "supervisor", "synthesis"]);
    expect((await call(getUsage, "GET", "/api/account/usage")).status).toBe(401);
  });

  it("gives admins the system overview and everyone else a 404", async () => {
    const d = await db();
    const failed = await createRun(d, {
      ownerId: carol.userId,
      question: "Carol's private question about her landlord",
      settings: {},
    });
    await endRun(failed.id, "failed", { error: "The model provider refused the key (401)." });
    const flaky = await createRun(d, {
      ownerId: bob.userId,
      question: "Bob's private question about his diagnosis",
      settings: {},
    });
    await saveRunUsage(d, flaky.id, usage(0.1, { researcher: { calls: 3, tokens: 30, cost: 0.1 } }));
    await appendEvent(d, flaky.id, {
      type: "model.retry",
      role: "researcher",
      attempt: 1,
      status: 429,
      delayMs: 10,
    });
    await appendEvent(d, flaky.id, { type: "model.retry", role: "researcher", attempt: 2, delayMs: 20 });
    await d
      .update(runs)
      .set({ status: "running", phase: "supervision", startedAt: new Date() })
      .where(eq(runs.id, flaky.id));

    expect((await call(getSystem, "GET", "/api/admin/system", { who: bob })).status).toBe(404);
    expect((await call(getSystem, "GET", "/api/admin/system")).status).toBe(401);
    const res = await call(getSystem, "GET", "/api/admin/system", { who: alice });
    expect(res.status).toBe(200);
    // Counts, states and accounts: no question of anyone's run (nor any piece of one).
    const text = await res.clone().text();
    for (const words of ["private question", "landlord", "diagnosis", "heat pumps"]) {
      expect(text).not.toContain(words);
    }
    const body = (await res.json()) as {
      runs: { id: string; ownerEmail: string; status: string; phase: string | null; ageSeconds: number }[];
      failures: { id: string; ownerEmail: string; error: string }[];
      models: {
        role: string;
        calls: number;
        retries: number;
        errorRate: number;
        byStatus: Record<string, number>;
      }[];
      costByDay: { day: string; costUsd: number }[];
    };
    const running = body.runs.find((r) => r.id === flaky.id);
    expect(running).toMatchObject({ ownerEmail: "bob@example.org", status: "running", phase: "supervision" });
    // Only unfinished runs are listed.
    expect(body.runs.every((r) => !["completed", "failed", "cancelled"].includes(r.status))).toBe(true);
    expect(body.failures[0]).toMatchObject({
      id: failed.id,
      ownerEmail: "carol@example.org",
      error: "The model provider refused the key (401).",
    });
    const researcher = body.models.find((m) => m.role === "researcher");
    expect(researcher?.retries).toBe(2);
    expect(researcher?.byStatus).toEqual({ "429": 1, network: 1 });
    // Every account's calls: flaky's 3, bob's 2 from the limits test, carol's 4 from the usage test.
    expect(researcher?.calls).toBe(3 + 2 + 4);
    expect(researcher?.errorRate).toBeCloseTo(2 / 11, 6);
    // Cost per day covers every account.
    const today = body.costByDay.at(-1);
    expect(today?.costUsd).toBeGreaterThan(0.75 + 0.1 - 1e-9);
    const [again] = await d
      .select()
      .from(runs)
      .where(and(eq(runs.id, flaky.id), eq(runs.status, "running")));
    expect(again).toBeDefined();
  });
});
