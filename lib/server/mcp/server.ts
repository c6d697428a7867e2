/**
 * The MCP server for one request and one caller: research tools and report resources, each acting
 * as the token's owner. Stateless streamable HTTP: every POST gets a fresh server and transport
 * (nothing is kept between requests, so any web process can answer any request).
 */
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { WebStandardStreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js";
import { AppError } from "../../errors.ts";
import { jsonBodyLimitBytes, readBodyBytes } from "../../http.ts";
import { stripNulDeep } from "../../nul.ts";
import { registerAskTool } from "./ask-tool.ts";
import type { McpContext } from "./context.ts";
import { registerDiffTool } from "./diff-tool.ts";
import { registerExportTool } from "./export-tool.ts";
import { registerFollowTool } from "./follow-tool.ts";
import { registerKnowledgeTool } from "./knowledge-tool.ts";
import { registerLineageTools } from "./lineage-tools.ts";
import { registerRefreshTool } from "./refresh-tool.ts";
import { registerReportResource } from "./report-resource.ts";
import { registerRunTools } from "./run-tools.ts";
import { registerScheduleTool } from "./schedule-tool.ts";

export const serverInfo = { name: "deep-research", version: "1.0.0" };

const instructions =
  "Deep research on the web and your document library. start_research starts a run and returns its id; follow_research reports its progress (call it again until the run ends); get_research returns the report and its sources once it is done. Reports are also resources: research://runs/{id}/report.";

export function createMcpServer(ctx: McpContext): McpServer {
  const server = new McpServer(serverInfo, { capabilities: { logging: {} }, instructions });
  registerRunTools(server, ctx);
  registerFollowTool(server, ctx);
  registerKnowledgeTool(server, ctx);
  registerAskTool(server, ctx);
  registerExportTool(server, ctx);
  registerLineageTools(server, ctx);
  registerDiffTool(server, ctx);
  registerScheduleTool(server, ctx);
  registerRefreshTool(server, ctx);
  registerReportResource(server, ctx);
  return server;
}

/** Answers one MCP HTTP request for the caller in `ctx`. */
export async function answerMcpRequest(req: Request, ctx: McpContext): Promise<Response> {
  const server = createMcpServer(ctx);
  const transport = new WebStandardStreamableHTTPServerTransport({ sessionIdGenerator: undefined });
  await server.connect(transport);
  const { request, parsedBody } = await readMcpBody(req);
  return transport.handleRequest(request, { parsedBody });
}

/**
 * The body read as every route reads JSON (lib/http.ts: its size limit, U+0000 dropped from every
 * string) and handed to the transport parsed. What does not parse goes to the transport as it came,
 * so it answers in JSON-RPC, as MCP clients expect.
 */
async function readMcpBody(req: Request): Promise<{ request: Request; parsedBody?: unknown }> {
  if (req.method !== "POST" || !req.body) return { request: req };
  const max = jsonBodyLimitBytes();
  const bytes = await readBodyBytes(
    req,
    max,
    () =>
      new AppError("payload_too_large", `The request body exceeds the ${max} bytes limit for JSON requests.`),
  );
  const request = new Request(req.url, {
    method: "POST",
    headers: req.headers,
    body: bytes as Uint8Array<ArrayBuffer>,
    signal: req.signal,
  });
  try {
    return { request, parsedBody: stripNulDeep(JSON.parse(new TextDecoder().decode(bytes))) };
  } catch {
    return { request };
  }
}
