// POST /api/runs/:id/refresh and the MCP refresh_research tool in-process, with real accounts on an
// embedded database: the owner gets 201 and a new version (versionOf the first run) seeded with the
// previous version's sources, listed oldest first; the new version's job step fetches the cited
// pages again from a local HTTP server through the real safe fetch and stores unchanged / changed /
// gone with one sources.rechecked event; another person gets 404 (API and MCP), a run without a
// report 409 and a read token 403, each creating nothing.
import http from "node:http";
import type { AddressInfo } from "node:net";
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { and, asc, eq, isNotNull } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { listEventsAfter } from "../db/queries/events.ts";
import { createRun } from "../db/queries/runs.ts";
import { reports, runs, sources } from "../db/schema.ts";
import { fetchDocumentIsolated, parseLimitsFromEnv } from "../lib/fetch/isolated-extract.ts";
import { createRunWriters } from "../lib/jobs/execute-run.ts";
import { getRuntime } from "../lib/jobs/runtime.ts";
import { normalisedTextHash, recheckCitedSources } from "../lib/jobs/source-recheck.ts";
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
import { makeReportedRun } from "./support/reported-run.ts";

type Handler = Parameters<typeof call>[0];
let stopApp: () => Promise<void>;
let alice: Person;
let bob: Person;
let refresh: Handler;
let getVersions: Handler;
let getRunRoute: Handler;
let mcpRoute: typeof import("../app/api/mcp/route.ts");
const clients: Client[] = [];

// The local web the cited pages are fetched from again: the guide as it was, the study with a new
// figure, the survey gone (404).
const PAGES: Record<string, string> = {
  "/guide": "Heat pumps keep most of their efficiency well below freezing.",
  "/nordic": "Defrost took 6% of the output in January.",
};
let server: http.Server;
let base = "";

beforeAll(async () => {
  stopApp = await useFreshAppDatabase("pglite");
  process.env.RATE_LIMIT_RUNS_PER_MINUTE = "1000";
  alice = await signUp("alice@example.org");
  bob = await signUpInvited(alice, "bob@example.org");
  refresh = (await import("../app/api/runs/[id]/refresh/route.ts")).POST as Handler;
  getVersions = (await import("../app/api/runs/[id]/versions/route.ts")).GET as Handler;
  getRunRoute = (await import("../app/api/runs/[id]/route.ts")).GET as Handler;
  mcpRoute = await import("../app/api/mcp/route.ts");
  server = http.createServer((req, res) => {
    const body = PAGES[req.url ?? ""];
    res.writeHead(body ? 200 : 404, { "content-type": "text/plain; charset=utf-8" });
    res.end(body ?? "not found");
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}, 60_000);
afterAll(async () => {
  for (const c of clients) await c.close().catch(() => {});
  delete process.env.RATE_LIMIT_RUNS_PER_MINUTE;
  await new Promise((resolve) => server.close(resolve));
  await stopApp();
});

const db = async () => (await getRuntime()).handle.db;
const post = (id: string, opts: { who?: Person; headers?: Record<string, string> }) =>
  call(refresh, "POST", `/api/runs/${id}/refresh`, { ...opts, params: { id } });
const read = async (id: string) =>
  (await call(getRunRoute, "GET", `/api/runs/${id}`, { who: alice, params: { id } })).json();
const runCount = async () => (await (await db()).select().from(runs)).length;

async function refreshed(id: string): Promise<string> {
  const res = await post(id, { who: alice });
  expect(res.status).toBe(201);
  return ((await res.json()) as { id: string }).id;
}

async function mcpTool(person: Person, args: Record<string, unknown>): Promise<CallToolResult> {
  const client = await mcpClientFor(person, (r) => mcpRoute.POST(r));
  clients.push(client);
  return (await client.callTool({ name: "refresh_research", arguments: args })) as CallToolResult;
}
const text = toolText;

describe("POST /api/runs/:id/refresh", () => {
  it("starts a new version of the report, seeded from the given one, listed oldest first", async () => {
    const rt = await getRuntime();
    const first = (await makeReportedRun(rt, alice.userId)).runId;
    const second = await refreshed(first);
    const view = await read(second);
    expect(view).toMatchObject({
      versionOf: first,
      parentId: null,
      question: "Do heat pumps work in cold climates?",
    });
    expect(view.settings).toMatchObject({ clarification: false, maxSupervisionRounds: 2 });
    // The seed: the first version's read sources, the cited ones pending their re-check.
    expect(view.sources.map((s: { url: string }) => s.url).sort()).toEqual([
      "https://energy.example/guide",
      "https://study.example/nordic",
      "https://survey.example/installers",
    ]);
    expect(view.sources.map((s: { recheck: string }) => s.recheck)).toEqual([
      "pending",
      "pending",
      "pending",
    ]);
    // A refresh of a later version is still a version of the first run.
    await (await db()).update(runs).set({ status: "completed" }).where(eq(runs.id, second));
    await (await db()).insert(reports).values({ runId: second, markdown: "# Later\n" });
    const third = await refreshed(second);
    expect((await read(third)).versionOf).toBe(first);
    const res = await call(getVersions, "GET", `/api/runs/${third}/versions`, {
      who: alice,
      params: { id: third },
    });
    expect(((await res.json()) as { id: string }[]).map((v) => v.id)).toEqual([first, second, third]);
  });

  it("answers 404 to another person (API and MCP), 409 without a report, 403 to a read token", async () => {
    const rt = await getRuntime();
    const first = (await makeReportedRun(rt, alice.userId)).runId;
    const unfinished = (
      await createRun(await db(), { ownerId: alice.userId, question: "Heat pumps?", settings: {} })
    ).id;
    const before = await runCount();
    const other = await post(first, { who: bob });
    expect(other.status).toBe(404);
    expect(await other.json()).toMatchObject({ error: { code: "not_found" } });
    const tool = await mcpTool(bob, { id: first });
    expect(tool.isError).toBe(true);
    expect(text(tool)).toBe("No research run with that id.");
    expect((await post(unfinished, { who: alice })).status).toBe(409);
    const { secret } = await createToken(
      rt,
      { userId: alice.userId, role: "user" },
      { name: "r", scope: "read" },
    );
    expect((await post(first, { headers: { authorization: `Bearer ${secret}` } })).status).toBe(403);
    expect(await runCount()).toBe(before);
  });

  it("starts the new version through the MCP tool for the owner", async () => {
    const first = (await makeReportedRun(await getRuntime(), alice.userId)).runId;
    const result = await mcpTool(alice, { id: first });
    expect(result.isError, text(result)).toBeFalsy();
    const { id, versionOf } = JSON.parse(text(result)) as { id: string; versionOf: string };
    expect(versionOf).toBe(first);
    expect((await read(id)).versionOf).toBe(first);
  });
});

describe("the new version's re-check of the cited sources", () => {
  const fetchDocument = (url: string, o: { signal?: AbortSignal }) =>
    fetchDocumentIsolated(url, parseLimitsFromEnv({}), {
      allowedHosts: [new URL(base).host],
      signal: o.signal,
    });

  it("stores unchanged, changed (with the new text) and gone, and emits one event with the counts", async () => {
    const rt = await getRuntime();
    const d = rt.handle.db;
    const { runId: first } = await makeReportedRun(rt, alice.userId);
    // The first version read its pages from the local web: the guide's text as the fetch extracts it.
    const guide = (await fetchDocument(`${base}/guide`, {})).text;
    for (const [from, path, content] of [
      ["https://energy.example/guide", "/guide", guide],
      ["https://study.example/nordic", "/nordic", null],
      ["https://survey.example/installers", "/installers", null],
    ] as const) {
      await d
        .update(sources)
        .set({ url: `${base}${path}`, normalizedUrl: `${base}${path}`, ...(content ? { content } : {}) })
        .where(and(eq(sources.runId, first), eq(sources.url, from)));
    }
    const second = await refreshed(first);
    const { events } = createRunWriters(d, rt.bus, second);
    const step = { db: d, runId: second, fetchDocument, events, signal: new AbortController().signal };
    await recheckCitedSources(step);

    const rows = await d
      .select()
      .from(sources)
      .where(and(eq(sources.runId, second), isNotNull(sources.recheck)))
      .orderBy(asc(sources.url));
    const byPath = Object.fromEntries(rows.map((r) => [new URL(r.url).pathname, r]));
    expect(byPath["/guide"]).toMatchObject({
      recheck: "unchanged",
      content: guide,
      contentHash: normalisedTextHash(guide),
    });
    expect(byPath["/nordic"].recheck).toBe("changed");
    expect(byPath["/nordic"].content).toContain("Defrost took 6% of the output");
    expect(byPath["/installers"]).toMatchObject({ recheck: "gone", content: null, contentHash: null });
    const rechecked = (await listEventsAfter(d, second)).filter((e) => e.type === "sources.rechecked");
    expect(rechecked.map((e) => e.payload)).toEqual([{ unchanged: 1, changed: 1, gone: 1 }]);
    // The previous version keeps its own text.
    const [old] = await d
      .select()
      .from(sources)
      .where(and(eq(sources.runId, first), eq(sources.url, `${base}/nordic`)));
    expect(old.content).toBe("Defrost took 4% of the output in January.");

    // Run again (a retried job): nothing is pending, so nothing is fetched or emitted again.
    await recheckCitedSources(step);
    expect((await listEventsAfter(d, second)).filter((e) => e.type === "sources.rechecked")).toHaveLength(1);
  });

  it("hashes normalised text: layout is not a change, a figure is", () => {
    expect(normalisedTextHash("A  COP of 3.\n\nAt 7 °C.")).toBe(normalisedTextHash(" A COP of 3. At 7 °C. "));
    expect(normalisedTextHash("A COP of 3.")).not.toBe(normalisedTextHash("A COP of 4."));
  });
});
