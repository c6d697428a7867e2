import { and, eq } from "drizzle-orm";
import type { DirectivePriority } from "../../lib/research/vocabulary.ts";
import type { Db } from "../client.ts";
import { directives } from "../schema.ts";

/** Case-, punctuation- and whitespace-insensitive form of a directive topic: the exact-dedup key. */
export function normalizeTopic(topic: string): string {
  return topic
    .toLowerCase()
    .normalize("NFKC")
    .replace(/[^\p{L}\p{N}]+/gu, " ")
    .trim();
}

/** A person's edit of a proposed directive during plan review. */
export interface DirectiveEdit {
  id: string;
  topic?: string;
  priority?: DirectivePriority;
  /** Drop it from the plan: it is marked skipped and never run. */
  drop?: boolean;
}

/**
 * Applies a plan-review edit to a pending directive of the run. False when the run has no such
 * pending directive; an edit that changes nothing is accepted without looking.
 */
export async function editPendingDirective(db: Db, runId: string, edit: DirectiveEdit): Promise<boolean> {
  const patch = edit.drop
    ? { status: "skipped" as const }
    : {
        ...(edit.topic ? { topic: edit.topic, normalizedTopic: normalizeTopic(edit.topic) } : {}),
        ...(edit.priority ? { priority: edit.priority } : {}),
      };
  if (!Object.keys(patch).length) return true;
  const rows = await db
    .update(directives)
    .set(patch)
    .where(and(eq(directives.id, edit.id), eq(directives.runId, runId), eq(directives.status, "pending")))
    .returning({ id: directives.id });
  return rows.length > 0;
}
