/**
 * Reading the knowledge base (GET /api/knowledge, the knowledge page, MCP): items, and the review
 * page's cards. Adding is add.ts; reviewing, review.ts.
 */
import { z } from "zod";
import {
  type KnowledgeSourceLink,
  type KnowledgeStatus,
  knowledgeSourcesForOwner,
  listKnowledge,
} from "../../../db/queries/knowledge.ts";
import { runQuestionsForOwner } from "../../../db/queries/runs.ts";
import type { Runtime } from "../../jobs/runtime.ts";
import { findNearDuplicate } from "../../research/index.ts";
import { knowledgeStatuses } from "../../research/ui.ts";
import { type KnowledgeItemView, viewOf } from "./item-view.ts";

export type { KnowledgeSourceLink } from "../../../db/queries/knowledge.ts";
export type { KnowledgeItemView } from "./item-view.ts";

/** GET /api/knowledge?status= */
export const knowledgeStatusSchema = z.enum(knowledgeStatuses);

export async function listKnowledgeItems(
  rt: Runtime,
  ownerId: string,
  filter: { status?: KnowledgeStatus } = {},
): Promise<KnowledgeItemView[]> {
  return (await listKnowledge(rt.handle.db, ownerId, filter)).map((i) => viewOf(i, ownerId));
}

/**
 * The items and, for the owner's items extracted from a run, that run's question (the review page's
 * labels). Shared items from someone else's run get no question: that run is not the viewer's to open.
 */
export async function knowledgeWithRunQuestions(
  rt: Runtime,
  ownerId: string,
): Promise<{ items: KnowledgeItemView[]; runQuestions: Record<string, string> }> {
  const items = await listKnowledgeItems(rt, ownerId);
  const runIds = [...new Set(items.flatMap((i) => (i.own && i.runId ? [i.runId] : [])))];
  return { items, runQuestions: await runQuestionsForOwner(rt.handle.db, ownerId, runIds) };
}

/**
 * One card of the review page: near-duplicate items (the same fact extracted by several runs, or
 * reworded) merged into one. `item` is the newest; a review action applies to every id in `ids`.
 */
export interface KnowledgeEntry {
  item: KnowledgeItemView;
  ids: string[];
  /** The owner's runs the merged items came from, newest first, with their questions. */
  runs: { id: string; question: string }[];
  /** The sources the merged items rest on (the owner's runs only), each linked on the page. */
  sources: KnowledgeSourceLink[];
}

/**
 * Groups items whose text is a near duplicate (the supervisor's token-set similarity for
 * directives). Only items of the same status and ownership merge: an approved fact and a rejected
 * rewording of it are two decisions, and someone else's shared item is not the viewer's to review.
 * Input order is kept (newest first), so each group's first item is its newest.
 */
export function groupNearDuplicates<T extends { id: string; content: string; status: string; own: boolean }>(
  items: readonly T[],
): T[][] {
  const groups: T[][] = [];
  const byBucket = new Map<string, { id: string; topic: string }[]>();
  const groupOf = new Map<string, T[]>();
  for (const item of items) {
    const bucket = `${item.status}:${item.own}`;
    const heads = byBucket.get(bucket) ?? [];
    const dup = findNearDuplicate(item.content, heads);
    if (dup) {
      groupOf.get(dup.id)?.push(item);
      continue;
    }
    const group = [item];
    groups.push(group);
    groupOf.set(item.id, group);
    byBucket.set(bucket, [...heads, { id: item.id, topic: item.content }]);
  }
  return groups;
}

/** The review page's cards: merged near-duplicates with their runs and linked sources. */
export async function knowledgeEntries(rt: Runtime, ownerId: string): Promise<KnowledgeEntry[]> {
  const { items, runQuestions } = await knowledgeWithRunQuestions(rt, ownerId);
  const sourceIds = [...new Set(items.flatMap((i) => (i.own ? i.sourceIds : [])))];
  const links = await knowledgeSourcesForOwner(rt.handle.db, ownerId, sourceIds);
  const linkById = new Map(links.map((l) => [l.id, l]));
  return groupNearDuplicates(items).map((group) => {
    const runIds = [...new Set(group.flatMap((i) => (i.own && i.runId ? [i.runId] : [])))];
    const sourceIdsOfGroup = [...new Set(group.flatMap((i) => i.sourceIds))];
    return {
      item: group[0],
      ids: group.map((i) => i.id),
      runs: runIds.map((id) => ({ id, question: runQuestions[id] ?? id.slice(0, 8) })),
      sources: sourceIdsOfGroup.flatMap((id) => linkById.get(id) ?? []),
    };
  });
}
