/**
 * An MCP client from the official SDK drives research in the built app: a personal API token made
 * with the session, streamable HTTP to /api/mcp, a run started and followed with progress
 * notifications, then its report, sources and report resource read back; a token refused once revoked.
 */
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { expect, test } from "@playwright/test";
import { baseUrl, scriptLlm, waitForIdle, webUrl } from "./support/helpers.ts";
import { researchScript } from "./support/research-script.ts";

test.beforeEach(async ({ request }) => {
  await waitForIdle(request);
});

async function connect(secret: string): Promise<Client> {
  const client = new Client({ name: "e2e-mcp", version: "1.0.0" });
  const transport = new StreamableHTTPClientTransport(new URL(`${baseUrl()}/api/mcp`), {
    requestInit: { headers: { Authorization: `Bearer ${secret}` } },
  });
  await client.connect(transport);
  return client;
}

const text = (r: CallToolResult) => (r.content[0] as { text: string }).text;
function json(r: CallToolResult) {
  expect(r.isError, text(r)).toBeFalsy();
  return JSON.parse(text(r));
}

test("an MCP client starts research, receives progress and reads the cited report", async ({ request }) => {
  test.setTimeout(120_000);
  await scriptLlm(researchScript({ webUrl: webUrl() }));
  const created = await request.post("/api/tokens", { data: { name: "e2e MCP client" } });
  expect(created.status()).toBe(201);
  const { token, id: tokenId } = await created.json();

  const client = await connect(token);
  try {
    const started = json(
      (await client.callTool({
        name: "start_research",
        arguments: { question: "Heat pump or gas boiler for a cold-climate home?" },
      })) as CallToolResult,
    );
    expect(started.dashboardUrl).toMatch(new RegExp(`/runs/${started.id}$`));

    // Follow until the run ends (each call returns after at most MCP_FOLLOW_SECONDS, with a cursor).
    const progress: string[] = [];
    let after = 0;
    let status = "";
    for (let call = 0; call < 5 && !["completed", "failed", "cancelled"].includes(status); call++) {
      const followed = json(
        (await client.callTool({ name: "follow_research", arguments: { id: started.id, after } }, undefined, {
          onprogress: (p) => progress.push(String(p.message)),
          resetTimeoutOnProgress: true,
        })) as CallToolResult,
      );
      after = followed.cursor;
      status = followed.status;
    }
    expect(status).toBe("completed");
    expect(progress).toContain("Phase: supervision");
    expect(progress.some((m) => m.startsWith("New directive"))).toBe(true);
    expect(progress.some((m) => m.startsWith("Source: "))).toBe(true);
    expect(progress.at(-1)).toMatch(/^Research completed: \d+ sources/);

    const done = json(
      (await client.callTool({ name: "get_research", arguments: { id: started.id } })) as CallToolResult,
    );
    expect(done.status).toBe("completed");
    expect(done.directives).toHaveLength(2);
    expect(done.report).toMatch(/^## Sources$/m);
    expect(done.sources.map((s: { url: string }) => s.url)).toContain(
      `${webUrl()}/pages/cold-climate-heat-pump-performance.html`,
    );

    const listed = json(
      (await client.callTool({ name: "list_sources", arguments: { id: started.id } })) as CallToolResult,
    );
    expect(listed.sources.length).toBeGreaterThan(0);

    const uri = `research://runs/${started.id}/report`;
    expect((await client.listResources()).resources.map((r) => r.uri)).toContain(uri);
    const resource = await client.readResource({ uri });
    const markdown = (resource.contents[0] as { text: string }).text;
    expect(markdown).toBe(await (await request.get(`/api/runs/${started.id}/report.md`)).text());

    const unknown = (await client.callTool({
      name: "get_research",
      arguments: { id: "00000000-0000-4000-8000-000000000000" },
    })) as CallToolResult;
    expect(unknown.isError).toBe(true);
    expect(text(unknown)).toBe("No research run with that id.");
  } finally {
    await client.close();
  }

  // Revoked: the next connection is refused at the HTTP level.
  expect((await request.delete(`/api/tokens/${tokenId}`)).status()).toBeLessThan(300);
  const refused = await fetch(`${baseUrl()}/api/mcp`, {
    method: "POST",
    headers: {
      authorization: `Bearer ${token}`,
      "content-type": "application/json",
      accept: "application/json, text/event-stream",
    },
    body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/list" }),
  });
  expect(refused.status).toBe(401);
});
