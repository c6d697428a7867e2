/**
 * The MCP server for one request and one caller: research tools and report resources, each acting
 * as the token's owner. Stateless streamable HTTP: every POST gets a fresh server and transport
 * (nothing is kept between requests, so any web process can answer any request).
 */
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { WebStandardStreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js";
import type { McpContext } from "./context.ts";
import { registerFollowTool } from "./follow-tool.ts";
import { registerKnowledgeTool } from "./knowledge-tool.ts";
import { registerReportResource } from "./report-resource.ts";
import { registerRunTools } from "./run-tools.ts";

export const serverInfo = { name: "deep-research", version: "1.0.0" };

const instructions =
  "Deep research on the web and your document library. start_research starts a run and returns its id; follow_research reports its progress (call it again until the run ends); get_research returns the report and its sources once it is done. Reports are also resources: research://runs/{id}/report.";

export function createMcpServer(ctx: McpContext): McpServer {
  const server = new McpServer(serverInfo, { capabilities: { logging: {} }, instructions });
  registerRunTools(server, ctx);
  registerFollowTool(server, ctx);
  registerKnowledgeTool(server, ctx);
  registerReportResource(server, ctx);
  return server;
}

/** Answers one MCP HTTP request for the caller in `ctx`. */
export async function answerMcpRequest(req: Request, ctx: McpContext): Promise<Response> {
  const server = createMcpServer(ctx);
  const transport = new WebStandardStreamableHTTPServerTransport({ sessionIdGenerator: undefined });
  await server.connect(transport);
  return transport.handleRequest(req);
}
