// Test-only: an MCP client for a person, through a personal token and the app's own /api/mcp route
// handler (no server socket), as the MCP tests call tools.
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { getRuntime } from "../../lib/jobs/runtime.ts";
import { createToken } from "../../lib/server/tokens/create.ts";
import { origin, type Person } from "./app-session.ts";

type McpPost = (request: Request) => Promise<Response>;

/** A connected client of `person`'s; the caller closes it. */
export async function mcpClientFor(person: Person, post: McpPost, name = "test"): Promise<Client> {
  const { secret } = await createToken(await getRuntime(), { userId: person.userId, role: "user" }, { name });
  const client = new Client({ name, version: "1.0.0" });
  await client.connect(
    new StreamableHTTPClientTransport(new URL(`${origin}/api/mcp`), {
      fetch: async (url, init) => post(new Request(url, init)),
      requestInit: { headers: { authorization: `Bearer ${secret}` } },
    }),
  );
  return client;
}

/** The text of a tool's first content part. */
export const toolText = (r: CallToolResult) => (r.content[0] as { text: string }).text;
