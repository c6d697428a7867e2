import {
  type AnyPgColumn,
  boolean,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from "drizzle-orm/pg-core";
import type {
  Because,
  CitationSupport,
  Degradation,
  DirectiveOrigin,
  DirectivePriority,
  DirectiveStatus,
  DirectiveType,
  QualityTier,
  RoundDecision,
  RunPhase,
  RunStatus,
} from "../lib/research/ui.ts";
import { createdAt, updatedAt } from "./columns.ts";

// The vocabulary is the engine's; re-exported so queries keep one import for tables and their words.
export {
  directivePriorities,
  type QualityTier,
  qualityTiers,
  type RunPhase,
  type RunStatus,
  runPhases,
  runStatuses,
  terminalRunStatuses,
} from "../lib/research/ui.ts";

export * from "./admin-schema.ts";
export * from "./auth-schema.ts";
export * from "./coordination-schema.ts";
export * from "./knowledge-schema.ts";
export * from "./library-schema.ts";
export * from "./questions-schema.ts";
export * from "./schedules-schema.ts";
export * from "./service-schema.ts";

export const runs = pgTable(
  "runs",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    /** Who may read the run. Accounts come later; until then a single local owner. */
    ownerId: text("owner_id").notNull(),
    question: text("question").notNull(),
    settings: jsonb("settings").$type<Record<string, unknown>>().notNull().default({}),
    status: text("status").$type<RunStatus>().notNull().default("queued"),
    phase: text("phase").$type<RunPhase>(),
    brief: text("brief"),
    clarificationQuestion: text("clarification_question"),
    clarificationAnswer: text("clarification_answer"),
    error: text("error"),
    /** Why it failed as a code with values (lib/research/because.ts), said in the reader's language. */
    errorBecause: jsonb("error_because").$type<Because>(),
    usage: jsonb("usage").$type<Record<string, unknown>>().notNull().default({}),
    /** Steps that fell back (lib/research/degradations.ts): one per step and round, in order. */
    degradations: jsonb("degradations").$type<Degradation[]>().notNull().default([]),
    /** Shape version of `checkpoint`, so an upgraded worker can migrate an older run's state. */
    stateVersion: integer("state_version").notNull().default(1),
    checkpoint: jsonb("checkpoint").$type<Record<string, unknown>>(),
    /** Highest event seq handed out; incremented in the same transaction as the event insert (gapless). */
    lastEventSeq: integer("last_event_seq").notNull().default(0),
    /** Set by the cancel API; the worker running the run watches it (and the bus) and aborts. */
    cancelRequestedAt: timestamp("cancel_requested_at", { withTimezone: true }),
    /** The owner asked for the report now (POST /api/runs/:id/finish); the worker stops researching. */
    finishRequestedAt: timestamp("finish_requested_at", { withTimezone: true }),
    /** The pg-boss job currently carrying the run, so a queued run can be cancelled in the queue. */
    jobId: text("job_id"),
    /**
     * Set on a run opened from a run bundle (POST /api/runs/import): where it came from. Such a run
     * is read-only, and its verdicts are the original instance's.
     */
    importedFrom: jsonb("imported_from").$type<ImportedFrom>(),
    /**
     * Lineage. `parentId`: the run this one researches deeper (POST /api/runs/:id/deeper).
     * `versionOf`: the first run of a report whose later versions this run is one of
     * (POST /api/runs/:id/refresh); null on the first version. Both are kept when a parent is
     * deleted (set null), so a child stays readable on its own.
     */
    parentId: uuid("parent_id").references((): AnyPgColumn => runs.id, { onDelete: "set null" }),
    versionOf: uuid("version_of").references((): AnyPgColumn => runs.id, { onDelete: "set null" }),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
    startedAt: timestamp("started_at", { withTimezone: true }),
    finishedAt: timestamp("finished_at", { withTimezone: true }),
  },
  (t) => [
    index("runs_owner_created_idx").on(t.ownerId, t.createdAt),
    index("runs_parent_idx").on(t.parentId),
    index("runs_version_of_idx").on(t.versionOf),
  ],
);
export type Run = typeof runs.$inferSelect;

/** The origin of an imported run (lib/server/exports/bundle-schema.ts). */
export interface ImportedFrom {
  /** The run's id on the instance that exported it. */
  originalId: string;
  exportedAt: string;
  schemaVersion: number;
  importedAt: string;
}
export type NewRun = typeof runs.$inferInsert;

export const runEvents = pgTable(
  "run_events",
  {
    runId: uuid("run_id")
      .notNull()
      .references(() => runs.id, { onDelete: "cascade" }),
    seq: integer("seq").notNull(),
    type: text("type").notNull(),
    payload: jsonb("payload").$type<Record<string, unknown>>().notNull().default({}),
    createdAt: createdAt(),
  },
  (t) => [primaryKey({ columns: [t.runId, t.seq] })],
);
export type RunEvent = typeof runEvents.$inferSelect;

export const directives = pgTable(
  "directives",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    runId: uuid("run_id")
      .notNull()
      .references(() => runs.id, { onDelete: "cascade" }),
    /** Position in the run, for stable ordering across rounds. */
    ordinal: integer("ordinal").notNull(),
    round: integer("round").notNull(),
    topic: text("topic").notNull(),
    /** One plain line of at most 80 characters (null on rows stored before titles: the view derives one). */
    title: text("title"),
    /** Lower-cased, whitespace/punctuation-folded topic: the de-duplication key. */
    normalizedTopic: text("normalized_topic").notNull(),
    perspective: text("perspective"),
    evidenceNeeded: text("evidence_needed"),
    priority: text("priority").$type<DirectivePriority>().notNull().default("normal"),
    origin: text("origin").$type<DirectiveOrigin>().notNull().default("supervisor"),
    status: text("status").$type<DirectiveStatus>().notNull().default("pending"),
    /** initial (round 0), follow-up (a later round's gap) or user (steering). */
    type: text("type").$type<DirectiveType>().notNull().default("initial"),
    /** Why the directive was created: the plan's reason, the gap it fills, or "requested by the user". */
    rationale: text("rationale"),
    error: text("error"),
    createdAt: createdAt(),
    startedAt: timestamp("started_at", { withTimezone: true }),
    finishedAt: timestamp("finished_at", { withTimezone: true }),
  },
  (t) => [
    uniqueIndex("directives_run_topic_uq").on(t.runId, t.normalizedTopic),
    uniqueIndex("directives_run_ordinal_uq").on(t.runId, t.ordinal),
  ],
);
export type Directive = typeof directives.$inferSelect;
export type NewDirective = typeof directives.$inferInsert;

export const sources = pgTable(
  "sources",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    runId: uuid("run_id")
      .notNull()
      .references(() => runs.id, { onDelete: "cascade" }),
    url: text("url").notNull(),
    /** Normalised URL: one row per URL per run, whatever spelling the search engine used. */
    normalizedUrl: text("normalized_url").notNull(),
    title: text("title").notNull().default(""),
    domain: text("domain").notNull().default(""),
    provider: text("provider").notNull().default(""),
    quality: text("quality").$type<QualityTier>().notNull().default("UNKNOWN"),
    snippet: text("snippet"),
    /** The text actually retrieved: what citations are checked against. */
    content: text("content"),
    /** A refresh's re-check: sha-256 of the normalised text fetched again (lib/jobs/source-recheck.ts). */
    contentHash: text("content_hash"),
    /**
     * A refresh's re-check of a source the previous version cited: `pending` until the new
     * version's job fetches it again, then `unchanged`, `changed` (text replaced) or `gone`.
     */
    recheck: text("recheck").$type<SourceRecheck>(),
    fetchedAt: timestamp("fetched_at", { withTimezone: true }),
    createdAt: createdAt(),
  },
  (t) => [uniqueIndex("sources_run_url_uq").on(t.runId, t.normalizedUrl)],
);
export const sourceRechecks = ["pending", "unchanged", "changed", "gone"] as const;
export type SourceRecheck = (typeof sourceRechecks)[number];
export type Source = typeof sources.$inferSelect;
export type NewSource = typeof sources.$inferInsert;

/**
 * URL strings a run admitted for reading beyond its sources' own URLs, exactly as they were seen:
 * the links on the pages it read (source: that page), and a search result's other spelling of a
 * page already stored (source: that page's row). extract_content fetches only an admitted string,
 * so the rule survives a restart only if the strings do.
 */
export const pageLinks = pgTable(
  "page_links",
  {
    runId: uuid("run_id")
      .notNull()
      .references(() => runs.id, { onDelete: "cascade" }),
    /** As seen (never normalised: a normalised form would admit its variants). */
    url: text("url").notNull(),
    /** The page the link was first found on, or the source it spells. */
    sourceId: uuid("source_id")
      .notNull()
      .references(() => sources.id, { onDelete: "cascade" }),
    createdAt: createdAt(),
  },
  (t) => [primaryKey({ columns: [t.runId, t.url] })],
);
export type PageLink = typeof pageLinks.$inferSelect;

export const directiveSources = pgTable(
  "directive_sources",
  {
    directiveId: uuid("directive_id")
      .notNull()
      .references(() => directives.id, { onDelete: "cascade" }),
    sourceId: uuid("source_id")
      .notNull()
      .references(() => sources.id, { onDelete: "cascade" }),
    /** When the directive's researcher read the page's text (null: a search hit only seen). */
    readAt: timestamp("read_at", { withTimezone: true }),
    createdAt: createdAt(),
  },
  (t) => [primaryKey({ columns: [t.directiveId, t.sourceId] })],
);
export type DirectiveSource = typeof directiveSources.$inferSelect;

export const researcherResults = pgTable(
  "researcher_results",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    runId: uuid("run_id")
      .notNull()
      .references(() => runs.id, { onDelete: "cascade" }),
    directiveId: uuid("directive_id")
      .notNull()
      .references(() => directives.id, { onDelete: "cascade" }),
    /** The researcher's full message history (tool calls, results, thinking): compression's input. */
    messages: jsonb("messages").$type<unknown[]>().notNull().default([]),
    compressedFindings: text("compressed_findings"),
    rawNotes: text("raw_notes"),
    toolCalls: integer("tool_calls").notNull().default(0),
    stopReason: text("stop_reason"),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [uniqueIndex("researcher_results_directive_uq").on(t.directiveId)],
);
export type ResearcherResult = typeof researcherResults.$inferSelect;

export const supervisionRounds = pgTable(
  "supervision_rounds",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    runId: uuid("run_id")
      .notNull()
      .references(() => runs.id, { onDelete: "cascade" }),
    round: integer("round").notNull(),
    method: text("method").notNull(),
    directivesGenerated: integer("directives_generated").notNull().default(0),
    directivesExecuted: integer("directives_executed").notNull().default(0),
    newSources: integer("new_sources").notNull().default(0),
    think: text("think"),
    assessment: jsonb("assessment").$type<Record<string, unknown>>(),
    coverageBefore: jsonb("coverage_before").$type<Record<string, unknown>>(),
    coverageAfter: jsonb("coverage_after").$type<Record<string, unknown>>(),
    decision: text("decision").$type<RoundDecision>(),
    reason: text("reason"),
    /** `reason` as a code with its values, said in the reader's language (null before codes). */
    because: jsonb("because").$type<Because>(),
    createdAt: createdAt(),
  },
  (t) => [uniqueIndex("supervision_rounds_run_round_uq").on(t.runId, t.round)],
);
export type SupervisionRound = typeof supervisionRounds.$inferSelect;

export const reports = pgTable("reports", {
  id: uuid("id").primaryKey().defaultRandom(),
  runId: uuid("run_id")
    .notNull()
    .unique()
    .references(() => runs.id, { onDelete: "cascade" }),
  markdown: text("markdown").notNull(),
  partial: boolean("partial").notNull().default(false),
  citationStats: jsonb("citation_stats").$type<Record<string, unknown>>().notNull().default({}),
  createdAt: createdAt(),
  updatedAt: updatedAt(),
});
export type Report = typeof reports.$inferSelect;

export const citations = pgTable(
  "citations",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    runId: uuid("run_id")
      .notNull()
      .references(() => runs.id, { onDelete: "cascade" }),
    number: integer("number").notNull(),
    sourceId: uuid("source_id")
      .notNull()
      .references(() => sources.id, { onDelete: "cascade" }),
    sentence: text("sentence").notNull(),
    support: text("support").$type<CitationSupport>().notNull().default("unchecked"),
    /** How the verdict was reached, or why the citation was left unchecked. */
    reason: text("reason"),
    /** The same reason as data, said in the reader's language; null on rows stored before it. */
    because: jsonb("because").$type<Because>(),
    /** The stored source text the verdict rests on. */
    passage: text("passage"),
    createdAt: createdAt(),
  },
  (t) => [index("citations_run_idx").on(t.runId, t.number)],
);
export type Citation = typeof citations.$inferSelect;

export const shares = pgTable(
  "shares",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    runId: uuid("run_id")
      .notNull()
      .references(() => runs.id, { onDelete: "cascade" }),
    /**
     * SHA-256 (hex) of the unguessable token in the share URL. The token itself is shown once, when
     * the link is created, and never stored: a leaked database does not open anyone's reports.
     */
    tokenHash: text("token_hash").notNull().unique(),
    /** The owner's note on whom the link was given to. */
    label: text("label"),
    createdAt: createdAt(),
    /** After this the link is dead; null: until revoked. */
    expiresAt: timestamp("expires_at", { withTimezone: true }),
    /** Revoking sets revoked_at; the row stays for audit. */
    revokedAt: timestamp("revoked_at", { withTimezone: true }),
    /** The owner lets the link's readers download the report as a PDF. */
    allowDownload: boolean("allow_download").notNull().default(false),
    /** The link shows the run's follow-up questions and answers under the report (private passages redacted). */
    includeThread: boolean("include_thread").notNull().default(false),
  },
  (t) => [index("shares_run_idx").on(t.runId)],
);
export type Share = typeof shares.$inferSelect;
