// U+0000 through the real route handlers on both databases: PostgreSQL refuses it in text and jsonb,
// so a question, a library text or title, and an MCP tool's arguments carrying one used to end in a
// 500. Every boundary drops it now, and a database refusal of the same kind that still gets through
// is answered 400, not 500.
import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { errorResponse } from "../lib/http.ts";
import { getRuntime } from "../lib/jobs/runtime.ts";
import { appDatabaseKinds, call, type Person, signUp, useFreshAppDatabase } from "./support/app-session.ts";

type Handler = Parameters<typeof call>[0];
const NUL = "\u0000";

describe.each(appDatabaseKinds())("NUL in what callers send (%s)", { timeout: 120_000 }, (kind) => {
  let stopApp: () => Promise<void>;
  let alice: Person;
  let createRun: Handler;
  let readRun: Handler;
  let addDocument: Handler;
  let readDocument: Handler;
  let mcp: Handler;

  beforeAll(async () => {
    stopApp = await useFreshAppDatabase(kind);
    alice = await signUp("alice@example.org");
    createRun = (await import("../app/api/runs/route.ts")).POST as Handler;
    readRun = (await import("../app/api/runs/[id]/route.ts")).GET as Handler;
    addDocument = (await import("../app/api/library/route.ts")).POST as Handler;
    readDocument = (await import("../app/api/library/[id]/route.ts")).GET as Handler;
    mcp = (await import("../app/api/mcp/route.ts")).POST as Handler;
  }, 120_000);
  afterAll(async () => stopApp());

  it("a question with NUL starts the run, stored without it", async () => {
    const res = await call(createRun, "POST", "/api/runs", {
      who: alice,
      body: { question: `How do heat${NUL} pumps work${NUL}?` },
    });
    expect(res.status).toBe(201);
    const { id } = await res.json();
    const run = await (await call(readRun, "GET", `/api/runs/${id}`, { who: alice, params: { id } })).json();
    expect(run.question).toBe("How do heat pumps work?");
  });

  it("a library text and title with NUL are stored without it", async () => {
    const res = await call(addDocument, "POST", "/api/library", {
      who: alice,
      body: { title: `Field${NUL} notes`, text: `Ground loops${NUL} stay at 10 °C.`, format: "text" },
    });
    expect(res.status).toBe(201);
    const { id } = await res.json();
    const read = await call(readDocument, "GET", `/api/library/${id}`, { who: alice, params: { id } });
    const { document } = await read.json();
    expect(document).toMatchObject({ title: "Field notes", content: "Ground loops stay at 10 °C." });
  });

  it("an uploaded text file with NUL past its first bytes is stored without it", async () => {
    const body = new FormData();
    const text = `${"Plain words. ".repeat(800)}Then a NUL:${NUL} and more.`;
    body.set("file", new File([text], "notes.txt", { type: "text/plain" }));
    const res = await addDocument(
      new Request("http://localhost:3000/api/library", {
        method: "POST",
        headers: { cookie: alice.cookie, origin: "http://localhost:3000" },
        body,
      }),
      { params: Promise.resolve({}) },
    );
    expect(res.status).toBe(201);
    const { document } = await res.json();
    const read = await call(readDocument, "GET", `/api/library/${document.id}`, {
      who: alice,
      params: { id: document.id },
    });
    expect((await read.json()).document.content).toContain("Then a NUL: and more.");
  });

  it("an MCP tool call with NUL in its arguments works, without it", async () => {
    const token = await mintToken(alice);
    const res = await call(mcp, "POST", "/api/mcp", {
      headers: { authorization: `Bearer ${token}`, accept: "application/json, text/event-stream" },
      body: {
        jsonrpc: "2.0",
        id: 1,
        method: "tools/call",
        params: { name: "start_research", arguments: { question: `Geothermal${NUL} heat in cities?` } },
      },
    });
    expect(res.status).toBe(200);
    const { id } = toolAnswer(await res.text());
    const run = await (await call(readRun, "GET", `/api/runs/${id}`, { who: alice, params: { id } })).json();
    expect(run.question).toBe("Geothermal heat in cities?");
  });

  it("a database refusal of NUL that slips through is a 400, in text and in jsonb", async () => {
    const { db } = (await getRuntime()).handle;
    const refusals = [
      db.execute(sql`select ${`a${NUL}b`}::text`),
      db.execute(sql`select ${JSON.stringify({ a: `b${NUL}c` })}::jsonb`),
    ];
    for (const refused of refusals) {
      const error = await refused.then(
        () => undefined,
        (e: unknown) => e,
      );
      expect(error).toBeDefined();
      const res = errorResponse(error);
      expect(res.status).toBe(400);
      expect((await res.json()).error).toMatchObject({
        code: "bad_request",
        message: expect.stringContaining("U+0000"),
      });
    }
  });
});

/** The JSON a tool answered, from the transport's answer (an SSE message or plain JSON-RPC). */
function toolAnswer(body: string): { id: string } {
  const message = body.startsWith("{") ? body : (/^data: (.*)$/m.exec(body)?.[1] ?? "");
  const { result } = JSON.parse(message) as { result: { isError?: boolean; content: { text: string }[] } };
  expect(result.isError, result.content[0]?.text).toBeFalsy();
  return JSON.parse(result.content[0].text);
}

async function mintToken(who: Person): Promise<string> {
  const { POST } = await import("../app/api/tokens/route.ts");
  const res = await call(POST as Handler, "POST", "/api/tokens", { who, body: { name: "nul test" } });
  return (await res.json()).token;
}
