/**
 * After the report (issue 31): the run's stored source text cut into passages for retrieval, and
 * the follow-up questions asked about the report with their answers.
 */
import { sql } from "drizzle-orm";
import { index, integer, jsonb, pgTable, text, timestamp, uniqueIndex, uuid } from "drizzle-orm/pg-core";
import type { Because, QuestionStatus, StoredAnswerCitation } from "../lib/research/index.ts";
import { tsvector } from "./columns.ts";
import { runs, sources } from "./schema.ts";

const at = (name: string) => timestamp(name, { withTimezone: true });

/**
 * A passage of a read source's stored text. `words` is the passage as lib/text/tokens.ts segments
 * it (space-separated), so the 'simple' full-text parser and pg_trgm see our words in any language.
 */
export const sourcePassages = pgTable(
  "source_passages",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    runId: uuid("run_id")
      .notNull()
      .references(() => runs.id, { onDelete: "cascade" }),
    sourceId: uuid("source_id")
      .notNull()
      .references(() => sources.id, { onDelete: "cascade" }),
    ordinal: integer("ordinal").notNull(),
    text: text("text").notNull(),
    words: text("words").notNull(),
    search: tsvector("search").generatedAlwaysAs(sql`to_tsvector('simple', words)`),
  },
  (t) => [
    uniqueIndex("source_passages_source_ordinal_uq").on(t.sourceId, t.ordinal),
    index("source_passages_run_idx").on(t.runId),
    index("source_passages_search_idx").using("gin", t.search),
  ],
);
export type SourcePassage = typeof sourcePassages.$inferSelect;

/** Runs whose read sources have been cut into passages (a run finished before issue 31 is indexed on first use). */
export const passageIndexes = pgTable("passage_indexes", {
  runId: uuid("run_id")
    .primaryKey()
    .references(() => runs.id, { onDelete: "cascade" }),
  passages: integer("passages").notNull(),
  createdAt: at("created_at").notNull().defaultNow(),
});

export const runQuestions = pgTable(
  "run_questions",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    runId: uuid("run_id")
      .notNull()
      .references(() => runs.id, { onDelete: "cascade" }),
    question: text("question").notNull(),
    status: text("status").$type<QuestionStatus>().notNull().default("queued"),
    /** Markdown whose [N] are the thread's numbers of the run's sources. */
    answer: text("answer"),
    citations: jsonb("citations").$type<StoredAnswerCitation[]>().notNull().default([]),
    model: text("model"),
    usage: jsonb("usage").$type<Record<string, unknown>>().notNull().default({}),
    error: text("error"),
    /** Why it failed as a code with values (lib/research/because.ts), said in the reader's language. */
    errorBecause: jsonb("error_because").$type<Because>(),
    jobId: text("job_id"),
    createdAt: at("created_at").notNull().defaultNow(),
    answeredAt: at("answered_at"),
  },
  (t) => [index("run_questions_run_idx").on(t.runId, t.createdAt)],
);
export type RunQuestion = typeof runQuestions.$inferSelect;
