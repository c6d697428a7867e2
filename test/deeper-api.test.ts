// POST /api/runs/:id/deeper and the MCP research_deeper tool in-process, with real accounts on an
// embedded database: the owner gets 201 and a child run seeded with the parent's brief, read
// sources and findings, shown as lineage on both runs; another person gets 404 (API and MCP), a
// run without a report 409, a read token 403, and a bad body a 4xx — each creating nothing.
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createRun } from "../db/queries/runs.ts";
import { createDbRunStore } from "../db/research-store.ts";
import { runs } from "../db/schema.ts";
import { getRuntime } from "../lib/jobs/runtime.ts";
import { createToken } from "../lib/server/tokens/create.ts";
import {
  call,
  origin,
  type Person,
  signUp,
  signUpInvited,
  useFreshAppDatabase,
} from "./support/app-session.ts";
import { mcpClientFor, toolText } from "./support/mcp-client.ts";

type Handler = Parameters<typeof call>[0];
let stopApp: () => Promise<void>;
let alice: Person;
let bob: Person;
let deeper: Handler;
let getRunRoute: Handler;
let mcpRoute: typeof import("../app/api/mcp/route.ts");
const clients: Client[] = [];

const BRIEF = "How well do air-source heat pumps work in cold climates, with measured seasonal COP figures?";
const FINDING = "Field trials measured a seasonal COP of 2.5 to 3 below freezing [1].";

beforeAll(async () => {
  stopApp = await useFreshAppDatabase("pglite");
  process.env.RATE_LIMIT_RUNS_PER_MINUTE = "1000";
  alice = await signUp("alice@example.org");
  bob = await signUpInvited(alice, "bob@example.org");
  deeper = (await import("../app/api/runs/[id]/deeper/route.ts")).POST as Handler;
  getRunRoute = (await import("../app/api/runs/[id]/route.ts")).GET as Handler;
  mcpRoute = await import("../app/api/mcp/route.ts");
}, 60_000);
afterAll(async () => {
  for (const c of clients) await c.close().catch(() => {});
  delete process.env.RATE_LIMIT_RUNS_PER_MINUTE;
  await stopApp();
});

/** Alice's run: researched (one directive, one read page) and, unless told otherwise, with a report. */
async function aliceRun(withReport = true): Promise<string> {
  const db = (await getRuntime()).handle.db;
  const run = await createRun(db, {
    ownerId: alice.userId,
    question: "Heat pumps in the cold?",
    settings: {},
  });
  await db.update(runs).set({ brief: BRIEF, status: "completed" }).where(eq(runs.id, run.id));
  const store = createDbRunStore(db, run.id);
  const { created } = await store.addDirectives([
    { round: 0, topic: "Cold-climate heat pump COP field data" },
  ]);
  const { source } = await store.addSource(created[0].id, {
    url: "https://trial.example/cop",
    normalizedUrl: "trial.example/cop",
    title: "Field trial",
    domain: "trial.example",
    provider: "fetch",
    quality: "HIGH",
    content: "The field trial measured a seasonal COP between 2.5 and 3 at minus 10 degrees.",
  });
  await store.markSourceRead(created[0].id, source.id);
  await store.saveResearcherResult({
    directiveId: created[0].id,
    messages: [],
    compressedFindings: FINDING,
    rawNotes: null,
    toolCalls: 1,
    stopReason: "complete",
  });
  await store.setDirectiveStatus(created[0].id, "done");
  if (withReport) {
    await store.saveReport({ markdown: "# Cold\n\nThey work [1].\n", partial: false, citationStats: {} });
  }
  return run.id;
}

const post = (id: string, opts: { who?: Person; body?: unknown; headers?: Record<string, string> }) =>
  call(deeper, "POST", `/api/runs/${id}/deeper`, { ...opts, params: { id } });
const read = async (id: string) =>
  (await call(getRunRoute, "GET", `/api/runs/${id}`, { who: alice, params: { id } })).json();
const childCount = async () =>
  (await (await getRuntime()).handle.db.select().from(runs)).filter((r) => r.parentId).length;

async function mcpTool(person: Person, args: Record<string, unknown>): Promise<CallToolResult> {
  const client = await mcpClientFor(person, (r) => mcpRoute.POST(r));
  clients.push(client);
  return (await client.callTool({ name: "research_deeper", arguments: args })) as CallToolResult;
}
const text = toolText;

describe("POST /api/runs/:id/deeper", () => {
  it("starts a child with the parent's brief, read sources and findings, shown as lineage on both", async () => {
    const parentId = await aliceRun();
    const res = await post(parentId, { who: alice, body: {} });
    expect(res.status).toBe(201);
    const { id } = (await res.json()) as { id: string };
    const child = await read(id);
    expect(child).toMatchObject({
      parentId,
      parent: { id: parentId, question: "Heat pumps in the cold?" },
      versionOf: null,
      question: "Heat pumps in the cold?",
      brief: BRIEF,
      children: [],
    });
    expect(child.sources.map((s: { url: string }) => s.url)).toEqual(["https://trial.example/cop"]);
    expect(child.directives).toEqual([expect.objectContaining({ type: "inherited", status: "done" })]);
    expect(Object.values(child.findings)).toEqual([FINDING]);
    expect(child.settings).toMatchObject({ clarification: false });
    const parent = await read(parentId);
    expect(parent.children).toEqual([expect.objectContaining({ id, question: "Heat pumps in the cold?" })]);
    expect(parent.parentId).toBeNull();
  });

  it("researches a given question in the parent's context; an empty body means {}", async () => {
    const parentId = await aliceRun();
    const question = "How much does a cold-climate heat pump cost to install?";
    const res = await post(parentId, { who: alice, body: { question } });
    expect(res.status).toBe(201);
    const child = await read(((await res.json()) as { id: string }).id);
    expect(child.question).toBe(question);
    expect(child.brief).toContain(question);
    expect(child.brief).toContain(BRIEF);
    const empty = await post(parentId, { who: alice, headers: { "content-length": "0" } });
    expect(empty.status).toBe(201);
  });

  it("answers 404 to another person, by API and MCP, and 409 without a report, creating nothing", async () => {
    const parentId = await aliceRun();
    const before = await childCount();
    const other = await post(parentId, { who: bob, body: {} });
    expect(other.status).toBe(404);
    expect(await other.json()).toMatchObject({ error: { code: "not_found" } });
    const tool = await mcpTool(bob, { id: parentId });
    expect(tool.isError).toBe(true);
    expect(text(tool)).toBe("No research run with that id.");
    const noReport = await post(await aliceRun(false), { who: alice, body: {} });
    expect(noReport.status).toBe(409);
    expect(await childCount()).toBe(before);
  });

  it("refuses a read token, a bad body and malformed JSON, creating nothing", async () => {
    const parentId = await aliceRun();
    const before = await childCount();
    const { secret } = await createToken(
      await getRuntime(),
      { userId: alice.userId, role: "user" },
      { name: "reader", scope: "read" },
    );
    const byReader = await post(parentId, { body: {}, headers: { authorization: `Bearer ${secret}` } });
    expect(byReader.status).toBe(403);
    expect((await post(parentId, { who: alice, body: { question: 5 } })).status).toBe(422);
    expect((await post(parentId, { who: alice, body: { question: "x", extra: true } })).status).toBe(422);
    expect((await post(parentId, { who: alice, body: "{not json" })).status).toBe(400);
    expect(await childCount()).toBe(before);
  });

  it("starts the child through the MCP tool for the owner", async () => {
    const parentId = await aliceRun();
    const result = await mcpTool(alice, { id: parentId });
    expect(result.isError, text(result)).toBeFalsy();
    const { id, parentId: p } = JSON.parse(text(result)) as { id: string; parentId: string };
    expect(p).toBe(parentId);
    expect((await read(id)).parentId).toBe(parentId);
  });
});
