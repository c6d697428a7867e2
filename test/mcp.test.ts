// The MCP server through its real route handler: the SDK's own Client over streamable HTTP, with a
// fetch that calls app/api/mcp/route.ts in-process, real accounts and personal API tokens. Checks
// the tools, the 404 rule across people (tools and resources), token refusal at the HTTP level,
// progress while following a run, and that knowledge search stays within the caller's own items.
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { writeRunEnd } from "../db/queries/events.ts";
import { getRun } from "../db/queries/runs.ts";
import { createDbRunStore } from "../db/research-store.ts";
import { withEventTransaction } from "../lib/jobs/event-sink.ts";
import { getRuntime } from "../lib/jobs/runtime.ts";
import { addOwnKnowledgeItem } from "../lib/server/knowledge/add.ts";
import { createToken } from "../lib/server/tokens/create.ts";
import { revokeToken } from "../lib/server/tokens/revoke.ts";
import {
  appDatabaseKinds,
  origin,
  type Person,
  signUp,
  signUpInvited,
  useFreshAppDatabase,
} from "./support/app-session.ts";

type Route = typeof import("../app/api/mcp/route.ts");

const MISSING = "00000000-0000-4000-8000-000000000000";
const NOT_FOUND = "No research run with that id.";

describe.each(appDatabaseKinds())("MCP server (%s)", (kind) => {
  let stopApp: () => Promise<void>;
  let route: Route;
  let alice: Person;
  let bob: Person;
  let aliceToken: string;
  let bobToken: string;
  const clients: Client[] = [];

  // The client's HTTP requests go straight to the route handler, as the built app would get them.
  const inProcessFetch = async (url: string | URL, init?: RequestInit) => {
    const req = new Request(url, init);
    const handler = { POST: route.POST, GET: route.GET, DELETE: route.DELETE }[req.method];
    if (!handler) return new Response(null, { status: 405 });
    return handler(req);
  };

  async function connect(secret: string): Promise<Client> {
    const client = new Client({ name: "mcp-test", version: "1.0.0" });
    const transport = new StreamableHTTPClientTransport(new URL(`${origin}/api/mcp`), {
      fetch: inProcessFetch,
      requestInit: { headers: { authorization: `Bearer ${secret}` } },
    });
    await client.connect(transport);
    clients.push(client);
    return client;
  }

  const tool = async (client: Client, name: string, args: Record<string, unknown>) =>
    (await client.callTool({ name, arguments: args })) as CallToolResult;
  const text = (r: CallToolResult) => (r.content[0] as { text: string }).text;
  const json = (r: CallToolResult) => {
    expect(r.isError, text(r)).toBeFalsy();
    return JSON.parse(text(r));
  };

  async function mint(person: Person, name = "mcp") {
    const rt = await getRuntime();
    return createToken(rt, { userId: person.userId, role: "user" }, { name });
  }

  beforeAll(async () => {
    stopApp = await useFreshAppDatabase(kind);
    process.env.MCP_FOLLOW_SECONDS = "20";
    route = await import("../app/api/mcp/route.ts");
    alice = await signUp("alice@example.org");
    bob = await signUpInvited(alice, "bob@example.org");
    aliceToken = (await mint(alice)).secret;
    bobToken = (await mint(bob)).secret;
  }, 60_000);
  afterAll(async () => {
    for (const c of clients) await c.close().catch(() => {});
    delete process.env.MCP_FOLLOW_SECONDS;
    await stopApp();
  });

  it("lists the research tools and the report resource template", async () => {
    const client = await connect(aliceToken);
    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name).sort()).toEqual([
      "add_directive",
      "ask_report",
      "cancel_research",
      "export_report",
      "follow_research",
      "get_diff",
      "get_research",
      "list_sources",
      "refresh_research",
      "research_deeper",
      "schedule_refresh",
      "search_knowledge",
      "start_research",
    ]);
    const start = tools.find((t) => t.name === "start_research");
    expect(start?.inputSchema.required).toEqual(["question"]);
    const { resourceTemplates } = await client.listResourceTemplates();
    expect(resourceTemplates.map((t) => t.uriTemplate)).toEqual(["research://runs/{id}/report"]);
  });

  it("refuses requests without a valid token at the HTTP level (401), whatever the cookie", async () => {
    const initialize = (headers: Record<string, string>) =>
      route.POST(
        new Request(`${origin}/api/mcp`, {
          method: "POST",
          headers: {
            "content-type": "application/json",
            accept: "application/json, text/event-stream",
            origin,
            ...headers,
          },
          body: JSON.stringify({
            jsonrpc: "2.0",
            id: 1,
            method: "initialize",
            params: {
              protocolVersion: "2025-06-18",
              capabilities: {},
              clientInfo: { name: "t", version: "1" },
            },
          }),
        }),
      );
    const cookieOnly = await initialize({ cookie: alice.cookie });
    expect(cookieOnly.status).toBe(401);
    expect((await cookieOnly.json()).error.code).toBe("unauthorized");

    const revoked = await mint(alice, "to revoke");
    expect((await initialize({ authorization: `Bearer ${revoked.secret}` })).status).toBe(200);
    await revokeToken(await getRuntime(), revoked.token.id, alice.userId);
    expect((await initialize({ authorization: `Bearer ${revoked.secret}` })).status).toBe(401);

    const twoDaysAgo = new Date(Date.now() - 2 * 86_400_000);
    const expired = await createToken(
      await getRuntime(),
      { userId: alice.userId, role: "admin" },
      { name: "old", expiresInDays: 1 },
      twoDaysAgo,
    );
    const refused = await initialize({ authorization: `Bearer ${expired.secret}` });
    expect(refused.status).toBe(401);
    expect((await refused.json()).error.message).toMatch(/revoked or expired/);
    // The SDK's client sees the same refusal when it connects.
    await expect(connect(expired.secret)).rejects.toThrow(/401|unauthorized|not valid/i);
  });

  it("starts, reads, steers and cancels a run as the token's owner; other people's runs read as missing", async () => {
    const a = await connect(aliceToken);
    const started = json(await tool(a, "start_research", { question: "How do heat pumps cope with frost?" }));
    expect(started.id).toMatch(/^[0-9a-f-]{36}$/);
    expect(started.dashboardUrl).toBe(`${origin}/runs/${started.id}`);
    const row = await getRun((await getRuntime()).handle.db, started.id);
    expect(row?.ownerId).toBe(alice.userId);

    const steered = json(
      await tool(a, "add_directive", {
        id: started.id,
        topic: "Defrost cycles and their energy cost",
        priority: "high",
      }),
    );
    expect(steered.directiveId).toMatch(/^[0-9a-f-]{36}$/);
    const view = json(await tool(a, "get_research", { id: started.id }));
    expect(view).toMatchObject({ id: started.id, status: "queued", sourceCount: 0 });
    expect(view.directives).toEqual([
      expect.objectContaining({
        topic: "Defrost cycles and their energy cost",
        priority: "high",
        origin: "user",
      }),
    ]);
    expect(view.report).toBeUndefined();

    const duplicate = await tool(a, "add_directive", {
      id: started.id,
      topic: "Defrost cycles and their energy cost",
    });
    expect(duplicate.isError).toBe(true);
    expect(text(duplicate)).toMatch(/^Not possible now: .*nearly the same/);

    const bad = await tool(a, "start_research", { question: "x" });
    expect(bad.isError).toBe(true);
    expect(text(bad)).toMatch(/question must be at least 3 characters/);

    // Bob sees nothing of Alice's run: every tool answers as for an id that does not exist.
    const b = await connect(bobToken);
    for (const [name, args] of [
      ["get_research", { id: started.id }],
      ["list_sources", { id: started.id }],
      ["follow_research", { id: started.id }],
      ["add_directive", { id: started.id, topic: "Something Bob wants researched" }],
      ["cancel_research", { id: started.id }],
      ["ask_report", { id: started.id, question: "What did the run find?" }],
      ["get_research", { id: MISSING }],
      ["get_research", { id: "not-a-run-id" }],
    ] as const) {
      const r = await tool(b, name, args);
      expect(r.isError, `${name} ${JSON.stringify(args)}`).toBe(true);
      expect(text(r)).toBe(NOT_FOUND);
    }
    expect((await getRun((await getRuntime()).handle.db, started.id))?.status).toBe("queued");

    expect(json(await tool(a, "cancel_research", { id: started.id }))).toEqual({ status: "cancelled" });
    const again = await tool(a, "cancel_research", { id: started.id });
    expect(again.isError).toBe(true);
    expect(text(again)).toMatch(/already ended \(cancelled\)/);
  });

  it("follows a run with progress notifications until it ends; the report is a resource only its owner can read", async () => {
    const rt = await getRuntime();
    const a = await connect(aliceToken);
    const { id } = json(
      await tool(a, "start_research", { question: "Which insulation suits old brick walls?" }),
    );
    const store = createDbRunStore(rt.handle.db, id);
    const { created } = await store.addDirectives([
      {
        round: 0,
        topic: "Breathable insulation",
        priority: "normal",
        origin: "supervisor",
        type: "initial",
        rationale: "r",
      },
    ]);
    const directive = created[0];

    const progress: string[] = [];
    const following = a.callTool({ name: "follow_research", arguments: { id } }, undefined, {
      onprogress: (p) => progress.push(String(p.message)),
    });
    // The run moves on while the client waits: events announced on the bus after each commit.
    await new Promise((r) => setTimeout(r, 300));
    await withEventTransaction(rt.handle.db, rt.bus, (_tx, events) =>
      events.append(id, { type: "phase.started", phase: "supervision" }),
    );
    const { source } = await store.addSource(directive.id, {
      url: "https://example.org/lime",
      normalizedUrl: "https://example.org/lime",
      title: "Lime plaster and wood fibre",
      domain: "example.org",
      provider: "test",
      quality: "HIGH",
    });
    await withEventTransaction(rt.handle.db, rt.bus, (_tx, events) =>
      events.append(id, {
        type: "source.added",
        sourceId: source.id,
        directiveId: directive.id,
        url: source.url,
        title: source.title,
        domain: "example.org",
        quality: "HIGH",
      }),
    );
    await store.saveReport({
      markdown:
        "# Old brick walls\n\nUse lime [1].\n\n## Sources\n\n1. [Lime plaster](https://example.org/lime)\n",
      partial: false,
      citationStats: {},
    });
    await withEventTransaction(rt.handle.db, rt.bus, (tx, events) =>
      writeRunEnd(tx, id, { type: "run.completed", sources: 1, citations: 1, partial: false }, (e) =>
        events.append(id, e),
      ),
    );

    const followed = JSON.parse(text((await following) as CallToolResult));
    expect(followed).toMatchObject({ id, status: "completed", sourceCount: 1 });
    expect(followed.next).toMatch(/has ended/);
    expect(progress).toEqual([
      "Phase: supervision",
      "Source: Lime plaster and wood fibre (example.org, HIGH)",
      "Research completed: 1 sources, 1 citations",
    ]);
    // Asked again from its cursor: nothing new, and it returns at once.
    const t0 = Date.now();
    const again = json(await tool(a, "follow_research", { id, after: followed.cursor }));
    expect(again.eventsReported).toBe(0);
    expect(Date.now() - t0).toBeLessThan(5000);

    const done = json(await tool(a, "get_research", { id }));
    expect(done.status).toBe("completed");
    expect(done.report).toContain("Use lime [1]");
    expect(done.sources).toEqual([
      expect.objectContaining({ url: "https://example.org/lime", quality: "HIGH" }),
    ]);
    expect(json(await tool(a, "list_sources", { id })).sources).toHaveLength(1);

    const uri = `research://runs/${id}/report`;
    const { resources } = await a.listResources();
    expect(resources.map((r) => r.uri)).toContain(uri);
    const read = await a.readResource({ uri });
    expect(read.contents[0]).toMatchObject({ uri, mimeType: "text/markdown" });
    expect((read.contents[0] as { text: string }).text).toContain("## Sources");

    const b = await connect(bobToken);
    expect((await b.listResources()).resources.map((r) => r.uri)).not.toContain(uri);
    await expect(b.readResource({ uri })).rejects.toThrow(NOT_FOUND);
    await expect(b.readResource({ uri: `research://runs/${MISSING}/report` })).rejects.toThrow(NOT_FOUND);
  });

  it("searches only the caller's own knowledge", async () => {
    const rt = await getRuntime();
    await addOwnKnowledgeItem(rt, alice.userId, {
      category: "finding",
      content: "Lime plaster lets brick walls breathe.",
    });
    await addOwnKnowledgeItem(rt, bob.userId, {
      category: "finding",
      content: "Brick walls in Bob's notes stay damp.",
    });
    const a = await connect(aliceToken);
    const found = json(await tool(a, "search_knowledge", { query: "brick walls" }));
    expect(found.items.map((i: { content: string }) => i.content)).toEqual([
      "Lime plaster lets brick walls breathe.",
    ]);
    const none = json(await tool(a, "search_knowledge", { query: "penguins" }));
    expect(none.items).toEqual([]);
  });
});
