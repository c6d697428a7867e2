/**
 * search_knowledge: the caller's own knowledge items (facts extracted from their runs, or added by
 * them) whose text matches the query's words, best matches first. Deprecated (rejected) items are left out.
 */
import type { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { z } from "zod";
import { type KnowledgeItemView, listKnowledgeItems } from "../knowledge/list.ts";
import type { McpContext } from "./context.ts";
import { registerScopedTool } from "./scoped-tools.ts";
import { jsonResult, toolCall } from "./tool-results.ts";

const MAX_RESULTS = 20;

const wordsOf = (text: string) => text.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? [];

/** Items matching at least one word of the query, the ones matching more words first. */
export function matchKnowledge(items: readonly KnowledgeItemView[], query: string): KnowledgeItemView[] {
  const wanted = [...new Set(wordsOf(query))];
  const scored = items.flatMap((item) => {
    const words = new Set(wordsOf(item.content));
    const hits = wanted.filter((w) => words.has(w)).length;
    return hits > 0 ? [{ item, hits }] : [];
  });
  return scored.sort((a, b) => b.hits - a.hits).map((s) => s.item);
}

export function registerKnowledgeTool(server: McpServer, ctx: McpContext): void {
  registerScopedTool(
    server,
    ctx,
    "search_knowledge",
    {
      title: "Search knowledge",
      description:
        "Search your knowledge base: facts extracted from your finished research runs or added by you. Returns the best matches for the query's words.",
      inputSchema: { query: z.string().trim().min(1).max(500).describe("Words to look for.") },
      annotations: { readOnlyHint: true },
    },
    ({ query }) =>
      toolCall(async () => {
        const own = (await listKnowledgeItems(ctx.rt, ctx.caller.userId)).filter(
          (i) => i.own && i.status !== "deprecated",
        );
        const found = matchKnowledge(own, query).slice(0, MAX_RESULTS);
        return jsonResult({
          items: found.map((i) => ({
            id: i.id,
            category: i.category,
            content: i.content,
            status: i.status,
            confidence: i.confidence,
            runId: i.runId,
          })),
        });
      }),
  );
}
