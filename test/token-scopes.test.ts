// Every operation of the OpenAPI document, and every MCP tool, called through its real route
// handler with a `read`, a `research` and an `admin` token of an admin account: each call is allowed
// exactly when the token's scope covers the scope the operation declares (`x-scope`), and refused
// with 403 and `details.requiredScope` otherwise. An operation (or tool) without a declared scope,
// or one whose path has no fixture to call it with, fails the test: routes added later must say
// what a token needs to call them.
import fs from "node:fs";
import path from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { writeRunEnd } from "../db/queries/events.ts";
import { createRun } from "../db/queries/runs.ts";
import { createDbRunStore } from "../db/research-store.ts";
import { sources } from "../db/schema.ts";
import { withEventTransaction } from "../lib/jobs/event-sink.ts";
import { getRuntime } from "../lib/jobs/runtime.ts";
import { inviteSomeone } from "../lib/server/accounts/invite.ts";
import {
  type OperationScope,
  operationScopes,
  scopeCovers,
  type TokenScope,
} from "../lib/server/auth/scopes.ts";
import { addOwnKnowledgeItem } from "../lib/server/knowledge/add.ts";
import { addToLibrary } from "../lib/server/library/add.ts";
import { mcpToolScopes } from "../lib/server/mcp/scoped-tools.ts";
import { shareRun } from "../lib/server/shares/create.ts";
import { createToken } from "../lib/server/tokens/create.ts";
import { origin, type Person, signUp, useFreshAppDatabase } from "./support/app-session.ts";

type Json = Record<string, unknown>;
type Operation = Json & { "x-scope"?: string };
// biome-ignore lint/suspicious/noExplicitAny: route handlers each type their own context
type Handler = (req: Request, ctx: any) => Promise<Response>;

const apiDir = path.resolve(import.meta.dirname, "../app/api");
const scopes: TokenScope[] = ["read", "admin", "research"]; // research last: its calls change things

/** Route files as matchers of documented paths: `[id]` matches one segment, `[...all]` the rest. */
function routeFiles(): { pattern: RegExp; file: string }[] {
  return fs
    .readdirSync(apiDir, { recursive: true, encoding: "utf8" })
    .filter((f) => /(^|\/)route\.ts$/.test(f))
    .map((file) => {
      const dir = path
        .dirname(file)
        .split(path.sep)
        .filter((s) => s !== ".");
      const parts = dir.map((s) =>
        s.startsWith("[...") ? ".+" : s.startsWith("[") ? "\\{\\w+\\}" : s.replace(/\./g, "\\."),
      );
      return { pattern: new RegExp(`^/api/${parts.join("/")}$`), file: path.join(apiDir, file) };
    });
}

async function handlerOf(docPath: string, method: string): Promise<Handler> {
  const routes = routeFiles().filter((r) => r.pattern.test(docPath));
  // The most specific route wins (a literal segment over a catch-all).
  routes.sort((a, b) => b.pattern.source.length - a.pattern.source.length);
  expect(routes.length, `no route file serves ${docPath}`).toBeGreaterThan(0);
  const mod = (await import(routes[0].file)) as Record<string, Handler>;
  const handler = mod[method.toUpperCase()];
  expect(handler, `${routes[0].file} exports no ${method.toUpperCase()}`).toBeTypeOf("function");
  return handler;
}

interface Fixtures {
  runId: string;
  sourceId: string;
  shareId: string;
  knowledgeId: string;
  documentId: string;
  tokenId: string;
  invitationId: string;
  userId: string;
}

/** A finished run with a source and a report, a share of it, a knowledge item, a document, a token, an invitation. */
async function makeFixtures(admin: Person): Promise<Fixtures> {
  const rt = await getRuntime();
  const db = rt.handle.db;
  const run = await createRun(db, {
    ownerId: admin.userId,
    question: "Do heat pumps work in frost?",
    settings: {},
  });
  const [source] = await db
    .insert(sources)
    .values({
      runId: run.id,
      url: "https://study.example/frost",
      normalizedUrl: "https://study.example/frost",
      title: "Frost study",
      domain: "study.example",
      provider: "fetch",
      quality: "HIGH",
      content: "Heat pumps kept 90 percent of their output at -15 °C.",
      fetchedAt: new Date(),
    })
    .returning();
  await createDbRunStore(db, run.id).saveReport({
    markdown: "# Frost\n\nThey work [1].\n\n## Sources\n\n1. [Frost study](https://study.example/frost)\n",
    partial: false,
    citationStats: {},
  });
  await withEventTransaction(db, rt.bus, (tx, events) =>
    writeRunEnd(tx, run.id, { type: "run.completed", sources: 1, citations: 1, partial: false }, (e) =>
      events.append(run.id, e),
    ),
  );
  const { share } = await shareRun(rt, run.id, admin.userId, {});
  const item = await addOwnKnowledgeItem(rt, admin.userId, {
    category: "finding",
    content: "Heat pumps cope with frost.",
  });
  const doc = await addToLibrary(rt, admin.userId, {
    title: "Notes",
    content: "Frost notes.",
    mimeType: "text/plain",
  });
  const spare = await createToken(rt, { userId: admin.userId, role: "admin" }, { name: "spare" });
  const invitation = await inviteSomeone(rt, admin.userId, { expiresInDays: 7 }, origin);
  return {
    runId: run.id,
    sourceId: source.id,
    shareId: share.id,
    knowledgeId: item.id,
    documentId: doc.id,
    tokenId: spare.token.id,
    invitationId: invitation.id,
    userId: admin.userId,
  };
}

/** The value of each path parameter, by the path it is in; a path not listed here fails the test. */
function pathParams(docPath: string, f: Fixtures): Record<string, string> {
  const byPath: Record<string, Record<string, string>> = {
    "/api/runs/{id}": { id: f.runId },
    "/api/runs/{id}/sources/{sourceId}": { id: f.runId, sourceId: f.sourceId },
    "/api/shares/{shareId}": { shareId: f.shareId },
    "/api/knowledge/{id}": { id: f.knowledgeId },
    "/api/library/{id}": { id: f.documentId },
    "/api/tokens/{id}": { id: f.tokenId },
    "/api/invitations/{id}": { id: f.invitationId },
    "/api/admin/users/{id}/limits": { id: f.userId },
  };
  const names = [...docPath.matchAll(/\{(\w+)\}/g)].map((m) => m[1]);
  if (names.length === 0) return {};
  const template = docPath.startsWith("/api/runs/{id}/") && !byPath[docPath] ? "/api/runs/{id}" : docPath;
  const params = byPath[template];
  expect(params, `no fixture for the parameters of ${docPath}: add one to pathParams`).toBeDefined();
  return params;
}

/** A body the operation accepts, where one matters; others get `{}` (a 4xx after the scope check is fine). */
const bodies: Record<string, unknown> = {
  "post /api/runs": { question: "How do heat pumps cope with frost?" },
  "post /api/runs/{id}/directives": { topic: "Defrost cycles and their energy cost", priority: "normal" },
  "post /api/runs/{id}/clarification": { answer: "Air-source heat pumps." },
  "post /api/runs/{id}/questions": { question: "How much output do they keep at -15 °C?" },
  "post /api/knowledge": { category: "finding", content: "Defrosting costs a few percent." },
  "patch /api/knowledge/{id}": { action: "approve" },
  "post /api/library": { title: "More notes", text: "Frost and heat pumps.", format: "text" },
  "patch /api/library/{id}": { shared: false },
  "post /api/tokens": { name: "minted" },
  "post /api/invitations": {},
  "put /api/admin/users/{id}/limits": { maxConcurrentRuns: null, monthlyCostLimitUsd: null },
  "post /api/admin/settings/test": { provider: "openai" },
  "delete /api/account": { confirmEmail: "admin@example.org" },
  "post /api/mcp": { jsonrpc: "2.0", id: 1, method: "ping" },
};

const withBody = new Set(["post", "put", "patch"]);

async function callOperation(
  handler: Handler,
  method: string,
  docPath: string,
  params: Record<string, string>,
  secret: string,
): Promise<Response> {
  const url = docPath.replace(/\{(\w+)\}/g, (_, name: string) => params[name]);
  const key = `${method} ${docPath}`;
  const headers: Record<string, string> = { authorization: `Bearer ${secret}` };
  let body: string | undefined;
  if (withBody.has(method) || key in bodies) {
    body = JSON.stringify(bodies[key] ?? {});
    headers["content-type"] = "application/json";
  }
  if (docPath === "/api/mcp") headers.accept = "application/json, text/event-stream";
  const req = new Request(`${origin}${url}`, { method: method.toUpperCase(), headers, body });
  return handler(req, { params: Promise.resolve(params) });
}

describe("every operation and MCP tool against each token scope", () => {
  let stopApp: () => Promise<void>;
  let admin: Person;
  let doc: { paths: Record<string, Record<string, Operation>> };
  const tokens = {} as Record<TokenScope, string>;

  beforeAll(async () => {
    stopApp = await useFreshAppDatabase("pglite");
    process.env.MCP_FOLLOW_SECONDS = "2";
    admin = await signUp("admin@example.org");
    const rt = await getRuntime();
    for (const scope of scopes) {
      tokens[scope] = (
        await createToken(rt, { userId: admin.userId, role: "admin" }, { name: `scope ${scope}`, scope })
      ).secret;
    }
    const { GET } = await import("../app/api/openapi.json/route.ts");
    doc = await (await GET(new Request(`${origin}/api/openapi.json`))).json();
  }, 60_000);
  afterAll(async () => {
    delete process.env.MCP_FOLLOW_SECONDS;
    await stopApp?.();
  });

  it("every documented operation declares a scope", () => {
    const undeclared = Object.entries(doc.paths).flatMap(([p, item]) =>
      Object.entries(item)
        .filter(([, op]) => !operationScopes.includes(op["x-scope"] as OperationScope))
        .map(([m]) => `${m.toUpperCase()} ${p}`),
    );
    expect(undeclared, "operations without an x-scope").toEqual([]);
  });

  it("lets a token call an operation exactly when its scope covers the operation's", async () => {
    const shared = await makeFixtures(admin);
    const operations = Object.entries(doc.paths).flatMap(([p, item]) =>
      Object.entries(item).map(([method, op]) => ({
        path: p,
        method,
        scope: op["x-scope"] as OperationScope,
      })),
    );
    // Deletions last, each on fixtures of its own, so that every other call finds what it names.
    operations.sort((a, b) => Number(a.method === "delete") - Number(b.method === "delete"));
    expect(operations.length).toBeGreaterThanOrEqual(45);
    const outcomes: string[] = [];
    for (const op of operations) {
      const handler = await handlerOf(op.path, op.method);
      for (const scope of scopes) {
        const fixtures = op.method === "delete" ? await makeFixtures(admin) : shared;
        const params = pathParams(op.path, fixtures);
        const res = await callOperation(handler, op.method, op.path, params, tokens[scope]);
        const body = (await res.text()).slice(0, 2000);
        const refusedForScope =
          res.status === 403 &&
          (JSON.parse(body) as { error?: { details?: Json } }).error?.details?.requiredScope;
        const label = `${op.method.toUpperCase()} ${op.path} (x-scope ${op.scope}) with a ${scope} token → ${res.status} ${body.slice(0, 200)}`;
        if (scopeCovers(scope, op.scope)) {
          expect(res.status, label).not.toBe(401);
          if (op.scope !== "open") expect(res.status, label).not.toBe(403);
          outcomes.push(`${scope} allowed`);
        } else {
          expect(refusedForScope, label).toBe(op.scope);
          outcomes.push(`${scope} refused`);
        }
      }
    }
    // Each kind of outcome happened: the test exercised refusals and successes of every scope.
    for (const o of [
      "read refused",
      "research allowed",
      "research refused",
      "admin allowed",
      "admin refused",
    ]) {
      expect(outcomes).toContain(o);
    }
  }, 300_000);

  it("lists every MCP tool with a declared scope and refuses a tool outside the token's", async () => {
    const route = await import("../app/api/mcp/route.ts");
    const fixtures = await makeFixtures(admin);
    const args: Record<string, Json> = {
      start_research: { question: "Do heat pumps need defrost cycles?" },
      get_research: { id: fixtures.runId },
      list_sources: { id: fixtures.runId },
      add_directive: { id: fixtures.runId, topic: "Defrost energy use in practice" },
      cancel_research: { id: fixtures.runId },
      follow_research: { id: fixtures.runId },
      search_knowledge: { query: "frost" },
      ask_report: { id: fixtures.runId, question: "How much output at -15 °C?" },
      export_report: { id: fixtures.runId, format: "pdf" },
      research_deeper: { id: fixtures.runId },
      get_diff: { id: fixtures.runId, against: fixtures.runId },
      schedule_refresh: { id: fixtures.runId, every: "off" },
      refresh_research: { id: fixtures.runId },
    };
    for (const scope of scopes) {
      const client = new Client({ name: "scope-test", version: "1.0.0" });
      const transport = new StreamableHTTPClientTransport(new URL(`${origin}/api/mcp`), {
        fetch: async (url, init) => route.POST(new Request(url, init)),
        requestInit: { headers: { authorization: `Bearer ${tokens[scope]}` } },
      });
      await client.connect(transport);
      try {
        const listed = (await client.listTools()).tools.map((t) => t.name).sort();
        expect(listed, "tools without a declared scope (mcpToolScopes)").toEqual(
          Object.keys(mcpToolScopes).sort(),
        );
        for (const name of listed) {
          const needed = mcpToolScopes[name as keyof typeof mcpToolScopes];
          expect(args[name], `no arguments for ${name}: add them to this test`).toBeDefined();
          const result = (await client.callTool({ name, arguments: args[name] })) as CallToolResult;
          const text = (result.content[0] as { text: string }).text;
          const refused = result.isError === true && /needs a token with the \w+ scope/.test(text);
          expect(refused, `${name} (${needed}) with a ${scope} token: ${text.slice(0, 200)}`).toBe(
            !scopeCovers(scope, needed),
          );
        }
        // The report resource only reads: any token may read its owner's report.
        const uri = `research://runs/${fixtures.runId}/report`;
        const read = await client.readResource({ uri });
        expect((read.contents[0] as { text: string }).text).toContain("## Sources");
      } finally {
        await client.close();
      }
    }
  }, 120_000);
});
