// POST /api/runs/:id/finish in-process with a real account on an embedded database: the owner's
// request is accepted (202) for a researching run, refused as JSON 409 otherwise; no session is 401
// and a malformed id 404, each changing nothing.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createRun, getRun, updateRunStatus } from "../db/queries/runs.ts";
import { getRuntime } from "../lib/jobs/runtime.ts";
import { call, type Person, signUp, useFreshAppDatabase } from "./support/app-session.ts";

type Handler = Parameters<typeof call>[0];
let stopApp: () => Promise<void>;
let alice: Person;
let finish: Handler;

beforeAll(async () => {
  stopApp = await useFreshAppDatabase("pglite");
  alice = await signUp("alice@example.org");
  finish = (await import("../app/api/runs/[id]/finish/route.ts")).POST as Handler;
}, 60_000);
afterAll(async () => stopApp());

async function aliceRun(phase: "supervision" | "synthesis") {
  const db = (await getRuntime()).handle.db;
  const run = await createRun(db, { ownerId: alice.userId, question: "Heat pumps?", settings: {} });
  await updateRunStatus(db, run.id, { status: "running", phase });
  return run.id;
}

const post = (id: string, who?: Person) =>
  call(finish, "POST", `/api/runs/${id}/finish`, { who, params: { id } });

describe("POST /api/runs/:id/finish", () => {
  it("accepts the owner's request for a researching run", async () => {
    const id = await aliceRun("supervision");
    const res = await post(id, alice);
    expect(res.status).toBe(202);
    expect(await res.json()).toEqual({ status: "finishing" });
    const db = (await getRuntime()).handle.db;
    expect((await getRun(db, id))?.finishRequestedAt).toBeInstanceOf(Date);
  });

  it("answers 409 with the error shape once the report is being written", async () => {
    const res = await post(await aliceRun("synthesis"), alice);
    expect(res.status).toBe(409);
    expect(await res.json()).toEqual({
      error: { code: "conflict", message: "The run is already writing its report." },
    });
  });

  it("answers 401 without a session and 404 for a malformed id, changing nothing", async () => {
    const id = await aliceRun("supervision");
    expect((await post(id)).status).toBe(401);
    expect((await post("not-a-run", alice)).status).toBe(404);
    const db = (await getRuntime()).handle.db;
    expect((await getRun(db, id))?.finishRequestedAt).toBeNull();
  });
});
