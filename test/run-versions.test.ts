// GET /api/runs/:id/versions and GET /api/runs/:id/diff?against= in-process, on an embedded
// database with two accounts: versions made directly in the database (a refresh's rows), the diff
// of a changed figure and a changed source, and 404 for another account's run in either place.
import { and, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createRun } from "../db/queries/runs.ts";
import { reports, sources } from "../db/schema.ts";
import { getRuntime } from "../lib/jobs/runtime.ts";
import { createToken } from "../lib/server/tokens/create.ts";
import { call, type Person, signUp, signUpInvited, useFreshAppDatabase } from "./support/app-session.ts";
import { makeReportedRun } from "./support/reported-run.ts";
import { markVersionOf } from "./support/run-rows.ts";

type Handler = Parameters<typeof call>[0];
let stopApp: () => Promise<void>;
let alice: Person;
let bob: Person;
let getDiff: Handler;
let getVersions: Handler;
let first: string;
let second: string;
let unfinished: string;
let bobsRun: string;

beforeAll(async () => {
  stopApp = await useFreshAppDatabase("pglite");
  alice = await signUp("alice@example.org");
  bob = await signUpInvited(alice, "bob@example.org");
  getDiff = (await import("../app/api/runs/[id]/diff/route.ts")).GET as Handler;
  getVersions = (await import("../app/api/runs/[id]/versions/route.ts")).GET as Handler;
  const rt = await getRuntime();
  const db = rt.handle.db;
  first = (await makeReportedRun(rt, alice.userId)).runId;
  // The second version: the table cell's figure changed (2.8 → 2.5; a cell is a sentence of its own),
  // and the Nordic study's page changed.
  second = (await makeReportedRun(rt, alice.userId)).runId;
  await markVersionOf(db, second, first);
  const [report] = await db.select().from(reports).where(eq(reports.runId, second));
  await db
    .update(reports)
    .set({ markdown: report.markdown.replace("| Cold climate | 2.8 [2] |", "| Cold climate | 2.5 [2] |") })
    .where(eq(reports.runId, second));
  await db
    .update(sources)
    .set({ content: "Defrost took 6% of the output in January." })
    .where(and(eq(sources.runId, second), eq(sources.url, "https://study.example/nordic")));
  // A third version still running: no report yet.
  unfinished = (await createRun(db, { ownerId: alice.userId, question: "Do heat pumps work?", settings: {} }))
    .id;
  await markVersionOf(db, unfinished, first);
  bobsRun = (await makeReportedRun(rt, bob.userId)).runId;
}, 60_000);

afterAll(async () => stopApp());

const diffOf = (id: string, against: string, who: Person = alice) =>
  call(getDiff, "GET", `/api/runs/${id}/diff?against=${against}`, { who, params: { id } });

describe("GET /api/runs/:id/versions", () => {
  it("lists the report's versions oldest first, from any of them", async () => {
    for (const id of [first, second, unfinished]) {
      const res = await call(getVersions, "GET", `/api/runs/${id}/versions`, { who: alice, params: { id } });
      expect(res.status).toBe(200);
      const versions = (await res.json()) as { id: string; createdAt: string; status: string }[];
      expect(versions.map((v) => v.id)).toEqual([first, second, unfinished]);
      expect(versions.map((v) => v.status)).toEqual(["completed", "completed", "queued"]);
      expect(Date.parse(versions[0].createdAt)).toBeLessThanOrEqual(Date.parse(versions[1].createdAt));
    }
  });

  it("lists a run without other versions alone, and another account's run is 404", async () => {
    const own = await call(getVersions, "GET", `/api/runs/${bobsRun}/versions`, {
      who: bob,
      params: { id: bobsRun },
    });
    expect(((await own.json()) as { id: string }[]).map((v) => v.id)).toEqual([bobsRun]);
    const res = await call(getVersions, "GET", `/api/runs/${first}/versions`, {
      who: bob,
      params: { id: first },
    });
    expect(res.status).toBe(404);
    const bad = await call(getVersions, "GET", "/api/runs/nope/versions", {
      who: alice,
      params: { id: "nope" },
    });
    expect(bad.status).toBe(400);
  });
});

describe("GET /api/runs/:id/diff?against=", () => {
  it("lists the changed claim with its before and after, and the changed source", async () => {
    const res = await diffOf(second, first);
    expect(res.status).toBe(200);
    const diff = await res.json();
    expect(diff).toMatchObject({ runId: second, against: first, differ: true });
    expect(diff.claims.changed).toEqual([
      {
        before: { text: "2.8", sources: ["https://study.example/nordic"] },
        after: { text: "2.5", sources: ["https://study.example/nordic"] },
      },
    ]);
    expect(diff.claims.added).toEqual([]);
    expect(diff.claims.removed).toEqual([]);
    expect(diff.sources).toEqual({
      added: [],
      removed: [],
      changed: [{ url: "https://study.example/nordic", title: "Nordic field study" }],
    });
  });

  it("is empty between a version and itself", async () => {
    const diff = await (await diffOf(first, first)).json();
    expect(diff.differ).toBe(false);
    expect(diff.claims).toEqual({ added: [], removed: [], changed: [] });
  });

  it("is 404 when either run is another account's, 409 without a report, 400 for a bad id", async () => {
    expect((await diffOf(second, bobsRun)).status).toBe(404);
    expect((await diffOf(bobsRun, first)).status).toBe(404);
    expect((await diffOf(first, second, bob)).status).toBe(404);
    expect((await diffOf(second, "00000000-0000-4000-8000-000000000000")).status).toBe(404);
    expect((await diffOf(unfinished, first)).status).toBe(409);
    expect((await diffOf(first, unfinished)).status).toBe(409);
    expect((await diffOf(first, "not-a-run")).status).toBe(400);
    const missing = await call(getDiff, "GET", `/api/runs/${first}/diff`, {
      who: alice,
      params: { id: first },
    });
    expect(missing.status).toBe(400);
    const malformed = await call(getDiff, "GET", `/api/runs/x/diff?against=${first}`, {
      who: alice,
      params: { id: "x" },
    });
    expect(malformed.status).toBe(400);
  });

  it("answers a read token", async () => {
    const rt = await getRuntime();
    const { secret } = await createToken(
      rt,
      { userId: alice.userId, role: "user" },
      { name: "reader", scope: "read" },
    );
    const res = await call(getDiff, "GET", `/api/runs/${second}/diff?against=${first}`, {
      headers: { authorization: `Bearer ${secret}` },
      params: { id: second },
    });
    expect(res.status).toBe(200);
    expect((await res.json()).differ).toBe(true);
  });
});
