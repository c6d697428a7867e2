import type { KnowledgeStatus } from "@/lib/research/ui";
import type {
  KnowledgeEntry as ServerKnowledgeEntry,
  KnowledgeItemView as ServerKnowledgeItemView,
} from "@/lib/server/knowledge/list";
import type { Jsonified } from "../jsonified";

/** A knowledge item as GET /api/knowledge returns it (dates as ISO strings, `own`, `shared`). */
export type KnowledgeItemView = Jsonified<ServerKnowledgeItemView>;

/** One card: near-duplicate items merged, with their runs and linked sources. */
export type KnowledgeEntryView = Jsonified<ServerKnowledgeEntry>;

/** The review sections, in the order a reviewer works through them (words: knowledge.status/empty). */
export const GROUPS: { status: KnowledgeStatus }[] = [
  { status: "provisional" },
  { status: "established" },
  { status: "deprecated" },
];

export type Filter = "all" | KnowledgeStatus;
