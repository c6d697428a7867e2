/**
 * The RunStore's knowledge methods: the run owner's established knowledge (with what an admin shared)
 * for the brief, and the run's extracted items, stored once per run however often the phase runs.
 */
import { createHash } from "node:crypto";
import { and, desc, eq, isNotNull, type SQL, sql } from "drizzle-orm";
import type { KnowledgeItemInput, KnowledgeItemRecord, RunStore } from "../lib/research/index.ts";
import type { Db } from "./client.ts";
import { visibleKnowledge } from "./queries/knowledge.ts";
import { knowledgeItems, runs } from "./schema.ts";

/** The run owner's knowledge base. */
export function knowledgeMethods(
  db: Db,
  runId: string,
): Pick<RunStore, "listEstablishedKnowledge" | "saveKnowledgeItems" | "countRunKnowledge"> {
  return {
    async listEstablishedKnowledge(limit) {
      const rows = await db
        .select()
        .from(knowledgeItems)
        .where(and(visibleKnowledge(ownerOf(runId)), eq(knowledgeItems.status, "established")))
        .orderBy(desc(knowledgeItems.updatedAt))
        .limit(limit);
      return rows.map(
        (k): KnowledgeItemRecord => ({
          id: k.id,
          category: k.category,
          content: k.content,
          sourceIds: k.sourceIds,
          confidence: k.confidence,
          needsReview: k.needsReview,
          status: k.status,
          origin: k.origin,
        }),
      );
    },
    async saveKnowledgeItems(items: KnowledgeItemInput[]) {
      if (!items.length) return;
      const ownerId = ownerOf(runId);
      // An item this run already stored (a re-run phase, a second worker) is skipped, not repeated.
      await db
        .insert(knowledgeItems)
        .values(
          items.map((i) => ({
            ...i,
            ownerId,
            runId,
            status: "provisional" as const,
            extractionKey: extractionKey(i.content),
          })),
        )
        .onConflictDoNothing({ target: [knowledgeItems.runId, knowledgeItems.extractionKey] });
    },
    async countRunKnowledge() {
      const [{ n }] = await db
        .select({ n: sql<number>`count(*)::int` })
        .from(knowledgeItems)
        .where(and(eq(knowledgeItems.runId, runId), isNotNull(knowledgeItems.extractionKey)));
      return Number(n);
    },
  };
}

/** A knowledge item's key within its run: its content folded (case, width, whitespace), hashed. */
function extractionKey(content: string): string {
  const folded = content.normalize("NFKC").toLowerCase().replace(/\s+/g, " ").trim();
  return createHash("sha256").update(folded).digest("hex");
}

/**
 * The run's owner as a subquery: read in the statement that needs it, not in one of its own before
 * it (each statement costs embedded PGlite about a millisecond of the run's serial path).
 */
function ownerOf(runId: string): SQL<string> {
  return sql<string>`(select ${runs.ownerId} from ${runs} where ${runs.id} = ${runId})`;
}
