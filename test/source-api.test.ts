// GET /api/runs/:id/sources/:sourceId in-process, with two real accounts on an embedded database:
// the owner sees the source's metadata, the stored passages its citations rest on and their
// verdicts; the run JSON lists the same verdicts; another person gets 404 for both.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createRun } from "../db/queries/runs.ts";
import { citations, sources } from "../db/schema.ts";
import { getRuntime } from "../lib/jobs/runtime.ts";
import { call, type Person, signUp, signUpInvited, useFreshAppDatabase } from "./support/app-session.ts";

type Handler = Parameters<typeof call>[0];
let stopApp: () => Promise<void>;
let alice: Person;
let bob: Person;
let getSource: Handler;
let getRun: Handler;
let runId: string;
let sourceId: string;

const PASSAGE = "The 2023 field study of 1,200 homes found emissions fell by 60 percent.";

beforeAll(async () => {
  stopApp = await useFreshAppDatabase("pglite");
  alice = await signUp("alice@example.org");
  bob = await signUpInvited(alice, "bob@example.org");
  getSource = (await import("../app/api/runs/[id]/sources/[sourceId]/route.ts")).GET as Handler;
  getRun = (await import("../app/api/runs/[id]/route.ts")).GET as Handler;

  // A finished run's rows as the engine stores them: one source read in full, two checked citations.
  const db = (await getRuntime()).handle.db;
  const run = await createRun(db, {
    ownerId: alice.userId,
    question: "Do heat pumps cut emissions?",
    settings: {},
  });
  runId = run.id;
  const [source] = await db
    .insert(sources)
    .values({
      runId,
      url: "https://study.example/heat",
      normalizedUrl: "https://study.example/heat",
      title: "Field study",
      domain: "study.example",
      provider: "fetch",
      quality: "HIGH",
      content: `Background.\n\n${PASSAGE}`,
      fetchedAt: new Date(),
    })
    .returning();
  sourceId = source.id;
  await db.insert(citations).values([
    {
      runId,
      number: 1,
      sourceId,
      sentence: "Heat pumps cut emissions by 60 percent.",
      support: "supported",
      reason: "lexical: 100% of the sentence's terms and all its numbers occur in the source",
      passage: PASSAGE,
    },
    {
      runId,
      number: 1,
      sourceId,
      sentence: "Heat pumps last forty years.",
      support: "unsupported",
      reason: "model: no lifetime given; marked in the report",
      passage: PASSAGE,
    },
  ]);
}, 60_000);

afterAll(async () => stopApp());

const sourceUrl = (run: string, source: string) => `/api/runs/${run}/sources/${source}`;

describe("GET /api/runs/:id/sources/:sourceId", () => {
  it("gives the owner the source's metadata, its citations' stored passages and their verdicts", async () => {
    const res = await call(getSource, "GET", sourceUrl(runId, sourceId), {
      who: alice,
      params: { id: runId, sourceId },
    });
    expect(res.status).toBe(200);
    const body = await res.json();
    expect(body).toMatchObject({
      id: sourceId,
      runId,
      url: "https://study.example/heat",
      title: "Field study",
      quality: "HIGH",
      readInFull: true,
    });
    expect(body.citations).toEqual([
      expect.objectContaining({ number: 1, support: "supported", passage: PASSAGE }),
      expect.objectContaining({
        number: 1,
        support: "unsupported",
        reason: "model: no lifetime given; marked in the report",
        passage: PASSAGE,
      }),
    ]);
  });

  it("lists the per-citation verdicts in the run JSON", async () => {
    const res = await call(getRun, "GET", `/api/runs/${runId}`, { who: alice, params: { id: runId } });
    const view = await res.json();
    expect(view.citations.map((c: { support: string }) => c.support).sort()).toEqual([
      "supported",
      "unsupported",
    ]);
    expect(view.citations[0]).not.toHaveProperty("passage");
    expect(view.sources[0]).toMatchObject({ id: sourceId, readInFull: true });
  });

  it("is 404 for another person's run and source, an unknown source, and a malformed id", async () => {
    const asBob = await call(getSource, "GET", sourceUrl(runId, sourceId), {
      who: bob,
      params: { id: runId, sourceId },
    });
    expect(asBob.status).toBe(404);
    expect(JSON.stringify(await asBob.json())).not.toContain("study.example");
    const runAsBob = await call(getRun, "GET", `/api/runs/${runId}`, { who: bob, params: { id: runId } });
    expect(runAsBob.status).toBe(404);
    const unknown = crypto.randomUUID();
    const missing = await call(getSource, "GET", sourceUrl(runId, unknown), {
      who: alice,
      params: { id: runId, sourceId: unknown },
    });
    expect(missing.status).toBe(404);
    const malformed = await call(getSource, "GET", sourceUrl(runId, "nope"), {
      who: alice,
      params: { id: runId, sourceId: "nope" },
    });
    expect(malformed.status).toBe(404);
  });

  it("needs a session", async () => {
    const res = await call(getSource, "GET", sourceUrl(runId, sourceId), { params: { id: runId, sourceId } });
    expect(res.status).toBe(401);
  });
});
