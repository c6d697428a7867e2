/**
 * Every MCP tool declares the scope a token needs to call it, like every HTTP operation
 * (lib/server/auth/scopes.ts). Tools are registered through registerScopedTool, which takes the name
 * from this table only and refuses a call outside the token's scope with a readable tool error;
 * test/token-scopes.test.ts lists the server's tools and fails on one that is not in the table.
 */
import type { McpServer, ToolCallback } from "@modelcontextprotocol/sdk/server/mcp.js";
import type { ZodRawShapeCompat } from "@modelcontextprotocol/sdk/server/zod-compat.js";
import type { ToolAnnotations } from "@modelcontextprotocol/sdk/types.js";
import { scopeCovers, scopeRefusal, type TokenScope } from "../auth/scopes.ts";
import type { McpContext } from "./context.ts";
import { toolError } from "./tool-results.ts";

export const mcpToolScopes = {
  start_research: "research",
  get_research: "read",
  list_sources: "read",
  add_directive: "research",
  cancel_research: "research",
  follow_research: "read",
  search_knowledge: "read",
  ask_report: "research",
  export_report: "read",
  // Lineage (lib/server/mcp/lineage-tools.ts).
  research_deeper: "research",
  // Versions of a report (issue 32).
  get_diff: "read",
  schedule_refresh: "research",
  refresh_research: "research",
} as const satisfies Record<string, TokenScope>;
export type McpToolName = keyof typeof mcpToolScopes;

/** Resources only read; listed here so that a resource added later declares its scope too. */
export const mcpResourceScopes = { "research-report": "read" } as const satisfies Record<string, TokenScope>;

interface ToolConfig<Args extends ZodRawShapeCompat> {
  title: string;
  description: string;
  inputSchema: Args;
  annotations?: ToolAnnotations;
}

export function registerScopedTool<Args extends ZodRawShapeCompat>(
  server: McpServer,
  ctx: McpContext,
  name: McpToolName,
  config: ToolConfig<Args>,
  callback: ToolCallback<Args>,
): void {
  const needed = mcpToolScopes[name];
  const tokenScope = ctx.caller.via === "token" ? (ctx.caller.scope ?? "read") : null;
  const allowed = tokenScope === null || scopeCovers(tokenScope, needed);
  // Outside the token's scope the tool is still listed (the client learns what a token could do),
  // but a call answers only the refusal; its own body never runs.
  const refusal = (() => toolError(scopeRefusal(tokenScope ?? "read", needed, name))) as unknown;
  server.registerTool(
    name,
    needed === "read" ? config : { ...config, description: `${config.description} Needs a ${needed} token.` },
    allowed ? callback : (refusal as ToolCallback<Args>),
  );
}
