// DELETE /api/runs/:id and GET /api/runs in-process, with two real accounts on an embedded database:
// the owner deletes an ended run and every row it owned is gone (its knowledge stays, unlinked);
// another person, a malformed id and a run still in progress change nothing. The list carries the
// fields the home page shows (sources, start and end) and filters by ?q=.
import { count, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Db } from "../db/client.ts";
import { createRun } from "../db/queries/runs.ts";
import { createShare } from "../db/queries/shares.ts";
import {
  citations,
  directiveSources,
  directives,
  knowledgeItems,
  pageLinks,
  reports,
  researcherResults,
  runEvents,
  runs,
  shares,
  sources,
  supervisionRounds,
} from "../db/schema.ts";
import { getRuntime } from "../lib/jobs/runtime.ts";
import { call, type Person, signUp, signUpInvited, useFreshAppDatabase } from "./support/app-session.ts";

type Handler = Parameters<typeof call>[0];
let stopApp: () => Promise<void>;
let alice: Person;
let bob: Person;
let del: Handler;
let getRun: Handler;
let listRuns: Handler;
let db: Db;

beforeAll(async () => {
  stopApp = await useFreshAppDatabase("pglite");
  alice = await signUp("alice@example.org");
  bob = await signUpInvited(alice, "bob@example.org");
  const route = await import("../app/api/runs/[id]/route.ts");
  del = route.DELETE as Handler;
  getRun = route.GET as Handler;
  listRuns = (await import("../app/api/runs/route.ts")).GET as Handler;
  db = (await getRuntime()).handle.db;
}, 60_000);

afterAll(async () => stopApp());

/** A run as the engine leaves it: events, a directive with its result, two sources, a round, a report, a citation, a share. */
async function finishedRun(ownerId: string, question: string, status: "completed" | "running" = "completed") {
  const run = await createRun(db, { ownerId, question, settings: {} });
  const started = new Date("2026-01-02T10:00:00Z");
  const finished = status === "completed" ? new Date("2026-01-02T10:07:30Z") : null;
  await db.update(runs).set({ status, startedAt: started, finishedAt: finished }).where(eq(runs.id, run.id));
  await db.insert(runEvents).values({ runId: run.id, seq: 1, type: "run.created", payload: {} });
  const [d] = await db
    .insert(directives)
    .values({ runId: run.id, ordinal: 1, round: 0, topic: "Costs", normalizedTopic: "costs" })
    .returning();
  const made = await db
    .insert(sources)
    .values(
      ["a", "b"].map((k) => ({
        runId: run.id,
        url: `https://${k}.example/`,
        normalizedUrl: `https://${k}.example/`,
        content: "text",
      })),
    )
    .returning();
  await db.insert(directiveSources).values({ directiveId: d.id, sourceId: made[0].id });
  await db.insert(pageLinks).values({ runId: run.id, url: "https://c.example/", sourceId: made[0].id });
  await db.insert(researcherResults).values({ runId: run.id, directiveId: d.id });
  await db.insert(supervisionRounds).values({ runId: run.id, round: 0, method: "decomposition" });
  await db.insert(reports).values({ runId: run.id, markdown: "# Report\n\nText [1]." });
  await db.insert(citations).values({ runId: run.id, number: 1, sourceId: made[0].id, sentence: "Text." });
  await createShare(db, { runId: run.id, label: null, expiresAt: null });
  const [k] = await db
    .insert(knowledgeItems)
    .values({ ownerId, runId: run.id, category: "finding", content: "Kept after the run is deleted." })
    .returning();
  return { id: run.id, knowledgeId: k.id };
}

/** Rows each table holds for the run. */
async function rowsOf(runId: string): Promise<Record<string, number>> {
  const byRun = {
    runEvents,
    directives,
    sources,
    pageLinks,
    researcherResults,
    supervisionRounds,
    reports,
    citations,
    shares,
  };
  const out: Record<string, number> = {};
  const n = async (q: Promise<{ n: number }[]>) => (await q)[0]?.n ?? 0;
  out.runs = await n(db.select({ n: count() }).from(runs).where(eq(runs.id, runId)));
  for (const [name, table] of Object.entries(byRun)) {
    out[name] = await n(db.select({ n: count() }).from(table).where(eq(table.runId, runId)));
  }
  out.directiveSources = await n(
    db
      .select({ n: count() })
      .from(directiveSources)
      .innerJoin(directives, eq(directives.id, directiveSources.directiveId))
      .where(eq(directives.runId, runId)),
  );
  return out;
}

const remove = (id: string, who?: Person) => call(del, "DELETE", `/api/runs/${id}`, { who, params: { id } });

describe("DELETE /api/runs/:id", () => {
  it("deletes the owner's ended run and everything it owned; its knowledge stays, unlinked", async () => {
    const { id, knowledgeId } = await finishedRun(alice.userId, "Do heat pumps save money?");
    const before = await rowsOf(id);
    expect(Object.values(before).every((n) => n > 0)).toBe(true);
    const res = await remove(id, alice);
    expect(res.status).toBe(204);
    expect(Object.values(await rowsOf(id)).every((n) => n === 0)).toBe(true);
    expect((await call(getRun, "GET", `/api/runs/${id}`, { who: alice, params: { id } })).status).toBe(404);
    const [k] = await db.select().from(knowledgeItems).where(eq(knowledgeItems.id, knowledgeId));
    expect(k.runId).toBeNull();
    expect((await remove(id, alice)).status).toBe(404);
  });

  it("is a 404 for another person's run, and the run stays whole", async () => {
    const { id } = await finishedRun(alice.userId, "Is this Bob's to delete?");
    const before = await rowsOf(id);
    const res = await remove(id, bob);
    expect(res.status).toBe(404);
    expect((await res.json()).error.code).toBe("not_found");
    expect(await rowsOf(id)).toEqual(before);
  });

  it("refuses a run still in progress with 409 and says to cancel it first", async () => {
    const { id } = await finishedRun(alice.userId, "Still running?", "running");
    const before = await rowsOf(id);
    const res = await remove(id, alice);
    expect(res.status).toBe(409);
    const body = await res.json();
    expect(body.error.code).toBe("conflict");
    expect(body.error.message).toContain("Cancel it first");
    expect(await rowsOf(id)).toEqual(before);
  });

  it("is a 404 for a malformed id and 401 without a session", async () => {
    expect((await remove("not-a-uuid", alice)).status).toBe(404);
    expect((await remove("00000000-0000-4000-8000-000000000000", alice)).status).toBe(404);
    const { id } = await finishedRun(alice.userId, "Anonymous delete?");
    expect((await remove(id)).status).toBe(401);
    expect((await rowsOf(id)).runs).toBe(1);
  });
});

describe("GET /api/runs", () => {
  it("lists each run with its source count, start and end, and filters by ?q=", async () => {
    const { id } = await finishedRun(bob.userId, "What do 100% heat_pumps COST to run?");
    await createRun(db, { ownerId: bob.userId, question: "Gas boilers in 2030?", settings: {} });
    const res = await call(listRuns, "GET", "/api/runs", { who: bob });
    const all = (await res.json()).runs as Record<string, unknown>[];
    expect(all.map((r) => r.question)).toEqual([
      "Gas boilers in 2030?",
      "What do 100% heat_pumps COST to run?",
    ]);
    expect(all[1]).toMatchObject({
      id,
      status: "completed",
      sourceCount: 2,
      startedAt: "2026-01-02T10:00:00.000Z",
      finishedAt: "2026-01-02T10:07:30.000Z",
    });
    expect(all[0]).toMatchObject({ sourceCount: 0, startedAt: null, finishedAt: null });
    // The older keys are all still there.
    expect(Object.keys(all[0])).toEqual(
      expect.arrayContaining(["id", "question", "status", "phase", "createdAt", "finishedAt"]),
    );

    const search = async (q: string) =>
      (
        (await (await call(listRuns, "GET", `/api/runs?q=${encodeURIComponent(q)}`, { who: bob })).json())
          .runs as { question: string }[]
      ).map((r) => r.question);
    expect(await search("cost")).toEqual(["What do 100% heat_pumps COST to run?"]);
    expect(await search("100%")).toEqual(["What do 100% heat_pumps COST to run?"]);
    // % and _ are literal characters, not wildcards.
    expect(await search("1%0")).toEqual([]);
    expect(await search("heat_p")).toEqual(["What do 100% heat_pumps COST to run?"]);
    expect(await search("heatXp")).toEqual([]);
    expect(await search("  ")).toHaveLength(2);
    // Another person's runs never match.
    expect(await search("heat pumps save")).toEqual([]);
  });
});
