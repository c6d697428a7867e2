/** The run as the HTTP contract shows it (docs/API.md): one JSON object with the agreed top-level keys. */
import type { Db } from "../../../db/client.ts";
import { getRunLink, listChildren } from "../../../db/queries/lineage.ts";
import {
  directiveFindings,
  getReport,
  listCitations,
  listSourceSummaries,
  researcherStopReasons,
} from "../../../db/queries/research.ts";
import { queuePosition } from "../../../db/queries/runs.ts";
import { createDbRunStore } from "../../../db/research-store.ts";
import type { Run } from "../../../db/schema.ts";
import { citationView } from "./source.ts";

export async function runView(db: Db, run: Run) {
  // The engine's own store reads the rows, so the API shows exactly what the engine persisted.
  const store = createDbRunStore(db, run.id);
  const [directiveRows, stopReasons, sourceRows, rounds, report, position, citationRows, lineage] =
    await Promise.all([
      store.listDirectives(),
      researcherStopReasons(db, run.id),
      listSourceSummaries(db, run.id),
      store.listRounds(),
      getReport(db, run.id),
      queuePosition(db, run),
      listCitations(db, run.id),
      runLineage(db, run),
    ]);
  const latest = rounds.at(-1);
  return {
    id: run.id,
    question: run.question,
    status: run.status,
    /** Place in the owner's queue while the run waits for a free slot (1 = next); null otherwise. */
    queuePosition: position,
    phase: run.phase,
    settings: run.settings,
    brief: run.brief,
    clarificationQuestion: run.clarificationQuestion,
    /** stopReason: why the directive's researcher stopped (null until its result is stored). */
    directives: directiveRows.map(({ ordinal: _o, ...d }) => ({
      ...d,
      stopReason: stopReasons.get(d.id) ?? null,
    })),
    coverage: latest?.coverageAfter ?? latest?.coverageBefore ?? null,
    supervisionHistory: rounds,
    sources: sourceRows.map((s) => ({ ...s, readInFull: Boolean(s.readInFull) })),
    report: report?.markdown ?? null,
    reportPartial: report?.partial ?? false,
    /** How the report's citations fared: kept/removed by post-processing, supported by their source's text. */
    citationStats: report?.citationStats ?? null,
    /** Every citation of the report with its support verdict and the reason (GET …/sources/:id has the passages). */
    citations: citationRows.map(citationView),
    usage: run.usage,
    /** Steps that fell back (planner, coverage assessment, citation check, knowledge): why, and the notice shown. */
    degradations: run.degradations,
    error: run.error,
    errorBecause: run.errorBecause ?? null,
    /** Set when the run was opened from a bundle: its origin; its verdicts are the original instance's. */
    importedFrom: run.importedFrom ?? null,
    ...lineage,
    createdAt: run.createdAt,
    finishedAt: run.finishedAt,
    /** The owner asked for the report now: research is stopping, steering is closed. */
    finishRequested: Boolean(run.finishRequestedAt),
    /** The last event stored when the run row was read: a page following the events applies later ones to this view. */
    lastEventSeq: run.lastEventSeq,
    /** Each researched directive's compressed findings, by directive id (the run page shows them on expand). */
    findings: await directiveFindings(db, run.id),
  };
}

/**
 * Where the run stands among its relatives: the run it researches deeper (`parentId`, with its
 * question as `parent` for a link), the first run of the report it is a version of (`versionOf`),
 * and the runs that research it deeper, oldest first. A parent deleted since is null.
 */
async function runLineage(db: Db, run: Run) {
  const [parent, children] = await Promise.all([
    run.parentId ? getRunLink(db, run.parentId) : undefined,
    listChildren(db, run.id),
  ]);
  return { parentId: run.parentId, parent: parent ?? null, versionOf: run.versionOf, children };
}

/**
 * A run in a list: what it asked, where it stands, when it started and ended (its duration) and
 * how many sources it fetched (0 when the caller did not count them).
 */
export function runSummary(run: Run & { sourceCount?: number }) {
  return {
    id: run.id,
    question: run.question,
    status: run.status,
    phase: run.phase,
    createdAt: run.createdAt,
    startedAt: run.startedAt,
    finishedAt: run.finishedAt,
    sourceCount: run.sourceCount ?? 0,
    parentId: run.parentId,
    versionOf: run.versionOf,
  };
}

/** The run as the API returns it, for the dashboard (type-only import; dates arrive as strings over JSON). */
export type RunView = Awaited<ReturnType<typeof runView>>;
export type RunSummary = ReturnType<typeof runSummary>;
