/**
 * The engine's RunStore over drizzle: works on PGlite and PostgreSQL alike. Uniqueness lives in
 * the database (directive topic, source URL, researcher result, round) so concurrent researchers
 * and a resumed worker can never store the same thing twice.
 */
import { and, asc, eq, inArray, sql } from "drizzle-orm";
import type {
  CitationRecord,
  DirectiveRecord,
  DirectiveStatus,
  NewDirectiveInput,
  ResearcherResultRecord,
  RunSnapshot,
  RunStore,
  SupervisionRoundRecord,
} from "../lib/research/index.ts";
import { directiveTitle } from "../lib/research/index.ts";
import type { Db } from "./client.ts";
import { normalizeTopic } from "./queries/directives.ts";
import { writeRunEnd } from "./queries/events.ts";
import {
  addRunDegradation,
  askRunClarification,
  getRun,
  lockRunRow,
  saveRunBrief,
  saveRunCheckpoint,
  saveRunUsage,
  updateRunStatus,
} from "./queries/runs.ts";
import { knowledgeMethods } from "./research-store-knowledge.ts";
import { sourceMethods } from "./research-store-sources.ts";
import {
  citations,
  type Directive,
  directives,
  type Run,
  reports,
  researcherResults,
  supervisionRounds,
} from "./schema.ts";

const toDirective = (d: Directive): DirectiveRecord => ({
  id: d.id,
  ordinal: d.ordinal,
  round: d.round,
  topic: d.topic,
  title: d.title ?? directiveTitle(null, d.topic),
  perspective: d.perspective,
  evidenceNeeded: d.evidenceNeeded,
  priority: d.priority,
  origin: d.origin,
  type: d.type,
  rationale: d.rationale,
  status: d.status,
  error: d.error,
});

function defaultDirectiveType(input: NewDirectiveInput): DirectiveRecord["type"] {
  if (input.origin === "user") return "user";
  return input.round === 0 ? "initial" : "follow-up";
}

export function createDbRunStore(db: Db, runId: string): RunStore {
  return {
    runId,
    ...runRowMethods(db, runId),
    ...directiveMethods(db, runId),
    ...sourceMethods(db, runId),
    ...researchMethods(db, runId),
    ...reportMethods(db, runId),
    ...knowledgeMethods(db, runId),
  };
}

/** The engine's view of a runs row (a caller that has read the row passes it on instead of a second read). */
export function toRunSnapshot(r: Run): RunSnapshot {
  return {
    id: r.id,
    ownerId: r.ownerId,
    question: r.question,
    settings: r.settings,
    status: r.status,
    phase: r.phase,
    brief: r.brief,
    clarificationQuestion: r.clarificationQuestion,
    clarificationAnswer: r.clarificationAnswer,
    stateVersion: r.stateVersion,
    checkpoint: r.checkpoint,
  };
}

const touch = () => ({ updatedAt: sql`now()` });

/** The run row itself: its snapshot and every write the engine makes to it (through db/queries/runs.ts). */
function runRowMethods(
  db: Db,
  runId: string,
): Pick<
  RunStore,
  | "getRun"
  | "setStatus"
  | "finishRun"
  | "askClarification"
  | "saveBrief"
  | "saveCheckpoint"
  | "saveUsage"
  | "addDegradation"
> {
  return {
    async getRun(): Promise<RunSnapshot> {
      const r = await getRun(db, runId);
      if (!r) throw new Error(`run ${runId} does not exist`);
      return toRunSnapshot(r);
    },
    async setStatus(patch) {
      await updateRunStatus(db, runId, patch);
    },
    // The row and its terminal event commit together. Written, not announced: the database layer
    // has no bus; the worker replaces this with its event sink's, which announces after COMMIT.
    async finishRun(event) {
      return db.transaction((tx) => writeRunEnd(tx as unknown as Db, runId, event));
    },
    async askClarification(question) {
      await askRunClarification(db, runId, question);
    },
    async saveBrief(brief) {
      await saveRunBrief(db, runId, brief);
    },
    async saveCheckpoint(checkpoint, stateVersion) {
      await saveRunCheckpoint(db, runId, checkpoint, stateVersion);
    },
    async saveUsage(usage) {
      await saveRunUsage(db, runId, usage);
    },
    addDegradation: (d) => addRunDegradation(db, runId, d),
  };
}

/** Directives: dense ordinals per run; a topic already in the run (normalised) comes back as a duplicate. */
function directiveMethods(
  db: Db,
  runId: string,
): Pick<RunStore, "listDirectives" | "addDirectives" | "setDirectiveStatus" | "markDirectivesRunning"> {
  return {
    async listDirectives() {
      const rows = await db
        .select()
        .from(directives)
        .where(eq(directives.runId, runId))
        .orderBy(asc(directives.ordinal));
      return rows.map(toDirective);
    },
    async addDirectives(inputs: NewDirectiveInput[]) {
      // One transaction holding the run row: concurrent adds (the supervisor, people steering)
      // queue here instead of reading the same max(ordinal), so ordinals stay dense and unique.
      return db.transaction(async (tx) => {
        await lockRunRow(tx as unknown as Db, runId);
        // The run's directives are few: one read gives the last ordinal and the topics taken, and
        // one insert stores every new one (not a read and an insert per directive).
        const existing = await tx
          .select({
            id: directives.id,
            ordinal: directives.ordinal,
            normalizedTopic: directives.normalizedTopic,
          })
          .from(directives)
          .where(eq(directives.runId, runId));
        let ordinal = existing.reduce((max, d) => Math.max(max, d.ordinal), 0);
        const taken = new Map(existing.map((d) => [d.normalizedTopic, d.id] as const));
        const duplicateOf: { topic: string; normalizedTopic: string }[] = [];
        const values: (typeof directives.$inferInsert)[] = [];
        for (const input of inputs) {
          const normalizedTopic = normalizeTopic(input.topic);
          if (taken.has(normalizedTopic)) {
            duplicateOf.push({ topic: input.topic, normalizedTopic });
            continue;
          }
          taken.set(normalizedTopic, "");
          ordinal += 1;
          values.push({
            runId,
            ordinal,
            round: input.round,
            topic: input.topic.trim(),
            title: directiveTitle(input.title, input.topic),
            normalizedTopic,
            perspective: input.perspective ?? null,
            evidenceNeeded: input.evidenceNeeded ?? null,
            priority: input.priority ?? "normal",
            origin: input.origin ?? "supervisor",
            type: input.type ?? defaultDirectiveType(input),
            rationale: input.rationale ?? null,
          });
        }
        const rows = values.length ? await tx.insert(directives).values(values).returning() : [];
        rows.sort((a, b) => a.ordinal - b.ordinal);
        // A repeat of an earlier input in this call is a duplicate of the one just stored.
        for (const d of rows) taken.set(d.normalizedTopic, d.id);
        const created = rows.map(toDirective);
        const duplicates = duplicateOf.map((d) => ({
          topic: d.topic,
          duplicateOf: taken.get(d.normalizedTopic) as string,
        }));
        return { created, duplicates };
      });
    },
    async setDirectiveStatus(id: string, status: DirectiveStatus, error?: string | null) {
      const now = new Date();
      await db
        .update(directives)
        .set({
          status,
          error: error ?? null,
          ...(status === "running" ? { startedAt: now } : {}),
          ...(status === "done" || status === "failed" || status === "skipped" ? { finishedAt: now } : {}),
        })
        .where(and(eq(directives.id, id), eq(directives.runId, runId)));
    },
    async markDirectivesRunning(ids: readonly string[]) {
      if (!ids.length) return;
      await db
        .update(directives)
        .set({ status: "running", error: null, startedAt: new Date() })
        .where(and(inArray(directives.id, [...ids]), eq(directives.runId, runId)));
    },
  };
}

/** Researchers' results (one per directive) and supervision rounds (one per round number). */
function researchMethods(
  db: Db,
  runId: string,
): Pick<
  RunStore,
  "saveResearcherResult" | "getResearcherResult" | "listResearcherResults" | "saveRound" | "listRounds"
> {
  return {
    async saveResearcherResult(r: ResearcherResultRecord) {
      const values = {
        runId,
        directiveId: r.directiveId,
        messages: r.messages,
        compressedFindings: r.compressedFindings,
        rawNotes: r.rawNotes,
        toolCalls: r.toolCalls,
        stopReason: r.stopReason,
      };
      await db
        .insert(researcherResults)
        .values(values)
        .onConflictDoUpdate({ target: researcherResults.directiveId, set: { ...values, ...touch() } });
    },
    async getResearcherResult(directiveId) {
      const [r] = await db
        .select()
        .from(researcherResults)
        .where(and(eq(researcherResults.runId, runId), eq(researcherResults.directiveId, directiveId)));
      return r ? toResult(r) : undefined;
    },
    async listResearcherResults() {
      const rows = await db
        .select()
        .from(researcherResults)
        .where(eq(researcherResults.runId, runId))
        .orderBy(asc(researcherResults.createdAt));
      return rows.map(toResult);
    },
    async saveRound(r: SupervisionRoundRecord) {
      const values = { runId, ...r };
      await db
        .insert(supervisionRounds)
        .values(values)
        .onConflictDoUpdate({ target: [supervisionRounds.runId, supervisionRounds.round], set: values });
    },
    async listRounds() {
      const rows = await db
        .select()
        .from(supervisionRounds)
        .where(eq(supervisionRounds.runId, runId))
        .orderBy(asc(supervisionRounds.round));
      return rows.map((r) => ({
        round: r.round,
        method: r.method,
        directivesGenerated: r.directivesGenerated,
        directivesExecuted: r.directivesExecuted,
        newSources: r.newSources,
        think: r.think,
        assessment: r.assessment,
        coverageBefore: r.coverageBefore,
        coverageAfter: r.coverageAfter,
        decision: r.decision,
        reason: r.reason,
        because: r.because,
      }));
    },
  };
}

/** The report (one per run) and its citations (replaced as a whole). */
function reportMethods(
  db: Db,
  runId: string,
): Pick<RunStore, "saveReport" | "getReport" | "saveCitations" | "listCitations"> {
  return {
    async saveReport(report) {
      const values = { runId, ...report };
      await db
        .insert(reports)
        .values(values)
        .onConflictDoUpdate({ target: reports.runId, set: { ...report, ...touch() } });
    },
    async getReport() {
      const [r] = await db.select().from(reports).where(eq(reports.runId, runId));
      return r ? { markdown: r.markdown, partial: r.partial } : undefined;
    },
    async saveCitations(list: CitationRecord[]) {
      // Replaces the run's citations: a re-written report must not keep stale ones.
      await db.transaction(async (tx) => {
        await tx.delete(citations).where(eq(citations.runId, runId));
        if (list.length) await tx.insert(citations).values(list.map((c) => ({ runId, ...c })));
      });
    },
    async listCitations() {
      const rows = await db
        .select({
          number: citations.number,
          sourceId: citations.sourceId,
          sentence: citations.sentence,
          support: citations.support,
          reason: citations.reason,
          because: citations.because,
          passage: citations.passage,
        })
        .from(citations)
        .where(eq(citations.runId, runId));
      return rows as CitationRecord[];
    },
  };
}

function toResult(r: typeof researcherResults.$inferSelect): ResearcherResultRecord {
  return {
    directiveId: r.directiveId,
    messages: r.messages,
    compressedFindings: r.compressedFindings,
    rawNotes: r.rawNotes,
    toolCalls: r.toolCalls,
    stopReason: r.stopReason,
  };
}
