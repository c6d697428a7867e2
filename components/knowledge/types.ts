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

/** The review sections, in the order a reviewer works through them. */
export const GROUPS: { status: KnowledgeStatus; title: string; empty: string }[] = [
  {
    status: "provisional",
    title: "Needs review",
    empty:
      "Nothing needs review. Items extracted from new reports appear here until you approve or reject them.",
  },
  {
    status: "established",
    title: "Established",
    empty: "No established items yet. Approved items and items you add are given to new research runs.",
  },
  {
    status: "deprecated",
    title: "Deprecated",
    empty: "No deprecated items. Rejected items are kept here and are not used by research runs.",
  },
];

export type Filter = "all" | KnowledgeStatus;
