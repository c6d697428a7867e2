/** What runs learned and their owners keep: knowledge items, reviewed, edited and shared across runs. */
import {
  boolean,
  index,
  jsonb,
  pgTable,
  real,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from "drizzle-orm/pg-core";
import type { KnowledgeCategory, KnowledgeOrigin, KnowledgeStatus } from "../lib/research/ui.ts";
import { createdAt, updatedAt } from "./columns.ts";
import { runs } from "./schema.ts";

export interface KnowledgeEdit {
  /** The account that made the edit. */
  by: string;
  /** ISO timestamp of the edit. */
  at: string;
  previousContent: string;
}

export const knowledgeItems = pgTable(
  "knowledge_items",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    ownerId: text("owner_id").notNull(),
    runId: uuid("run_id").references(() => runs.id, { onDelete: "set null" }),
    category: text("category").$type<KnowledgeCategory>().notNull(),
    content: text("content").notNull(),
    sourceIds: jsonb("source_ids").$type<string[]>().notNull().default([]),
    confidence: real("confidence").notNull().default(0.5),
    needsReview: boolean("needs_review").notNull().default(true),
    status: text("status").$type<KnowledgeStatus>().notNull().default("provisional"),
    origin: text("origin").$type<KnowledgeOrigin>().notNull().default("extracted"),
    /** Marked by an admin: every account sees the item (read-only) and its runs may use it. */
    shared: boolean("shared").notNull().default(false),
    /**
     * Set when extracted from a run: a hash of the item's folded content as extracted (edits do
     * not change it), unique per run, so a re-run knowledge phase cannot store an item twice.
     */
    extractionKey: text("extraction_key"),
    /** Every content edit, oldest first: who made it, when, and the text it replaced. */
    history: jsonb("history").$type<KnowledgeEdit[]>().notNull().default([]),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
    reviewedAt: timestamp("reviewed_at", { withTimezone: true }),
  },
  (t) => [
    index("knowledge_owner_status_idx").on(t.ownerId, t.status),
    uniqueIndex("knowledge_run_extraction_uq").on(t.runId, t.extractionKey),
  ],
);
export type KnowledgeItem = typeof knowledgeItems.$inferSelect;
