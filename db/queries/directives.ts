import { and, eq } from "drizzle-orm";
import { type DirectivePriority, directiveTitle } from "../../lib/research/index.ts";
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

/** Why a set of plan-review edits cannot be applied; nothing was written. */
export type DirectiveEditProblem =
  | { kind: "not_pending"; id: string }
  /** After the edits these directives of the run would share one normalised topic. */
  | { kind: "duplicate_topic"; topic: string; directiveIds: string[] };

/**
 * Applies plan-review edits to pending directives of the run, all or none: it checks first that
 * every edited directive is pending and that the run's topics stay unique (normalised) once every
 * edit is applied, and writes nothing otherwise. Call it inside a transaction holding the run.
 */
export async function editPendingDirectives(
  db: Db,
  runId: string,
  edits: readonly DirectiveEdit[],
): Promise<DirectiveEditProblem | undefined> {
  const rows = await db
    .select({ id: directives.id, status: directives.status, normalizedTopic: directives.normalizedTopic })
    .from(directives)
    .where(eq(directives.runId, runId));
  const byId = new Map(rows.map((r) => [r.id, r]));
  const missing = edits.find((e) => byId.get(e.id)?.status !== "pending");
  if (missing) return { kind: "not_pending", id: missing.id };
  const retitled = edits.filter((e) => e.topic && !e.drop);
  const clash = topicClash(rows, retitled);
  if (clash) return clash;
  // A topic may move to a directive whose own topic moves too (a swap): park every edited topic
  // on a key no normalised topic can take (it keeps no letters) before writing the new ones.
  for (const e of retitled) {
    await db
      .update(directives)
      .set({ normalizedTopic: `#${e.id}` })
      .where(and(eq(directives.id, e.id), eq(directives.runId, runId)));
  }
  for (const e of edits) await applyEdit(db, runId, e);
  return undefined;
}

/** The first normalised topic two directives would share once `retitled` is applied. */
function topicClash(
  rows: { id: string; normalizedTopic: string }[],
  retitled: readonly DirectiveEdit[],
): DirectiveEditProblem | undefined {
  const finalTopic = new Map(rows.map((r) => [r.id, r.normalizedTopic]));
  for (const e of retitled) finalTopic.set(e.id, normalizeTopic(e.topic as string));
  for (const e of retitled) {
    const key = finalTopic.get(e.id);
    const sharing = [...finalTopic].filter(([, t]) => t === key).map(([id]) => id);
    if (sharing.length > 1)
      return { kind: "duplicate_topic", topic: e.topic as string, directiveIds: sharing };
  }
  return undefined;
}

async function applyEdit(db: Db, runId: string, edit: DirectiveEdit): Promise<void> {
  const patch = edit.drop
    ? { status: "skipped" as const }
    : {
        // The person's own words become the title too: the planner's title named the old topic.
        ...(edit.topic
          ? {
              topic: edit.topic,
              title: directiveTitle(null, edit.topic),
              normalizedTopic: normalizeTopic(edit.topic),
            }
          : {}),
        ...(edit.priority ? { priority: edit.priority } : {}),
      };
  if (!Object.keys(patch).length) return;
  await db
    .update(directives)
    .set(patch)
    .where(and(eq(directives.id, edit.id), eq(directives.runId, runId), eq(directives.status, "pending")));
}
