/** The run as the HTTP contract shows it (DESIGN §5): one JSON object with the agreed top-level keys. */
import type { Db } from "../../db/client.ts";
import { getReport, listDirectives, listSupervisionRounds } from "../../db/queries/research.ts";
import { listSources } from "../../db/queries/sources.ts";
import type { Run } from "../../db/schema.ts";

export async function runView(db: Db, run: Run) {
  const [directiveRows, sourceRows, rounds, report] = await Promise.all([
    listDirectives(db, run.id),
    listSources(db, run.id),
    listSupervisionRounds(db, run.id),
    getReport(db, run.id),
  ]);
  const latest = rounds.at(-1);
  return {
    id: run.id,
    question: run.question,
    status: run.status,
    phase: run.phase,
    settings: run.settings,
    brief: run.brief,
    clarificationQuestion: run.clarificationQuestion,
    directives: directiveRows.map((d) => ({
      id: d.id,
      round: d.round,
      topic: d.topic,
      perspective: d.perspective,
      evidenceNeeded: d.evidenceNeeded,
      priority: d.priority,
      origin: d.origin,
      status: d.status,
    })),
    coverage: latest?.coverageAfter ?? latest?.coverageBefore ?? null,
    supervisionHistory: rounds.map((r) => ({
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
    })),
    sources: sourceRows.map((s) => ({
      id: s.id,
      url: s.url,
      title: s.title,
      domain: s.domain,
      provider: s.provider,
      quality: s.quality,
    })),
    report: report?.markdown ?? null,
    reportPartial: report?.partial ?? false,
    usage: run.usage,
    error: run.error,
    createdAt: run.createdAt,
    finishedAt: run.finishedAt,
  };
}

export function runSummary(run: Run) {
  return {
    id: run.id,
    question: run.question,
    status: run.status,
    phase: run.phase,
    createdAt: run.createdAt,
    finishedAt: run.finishedAt,
  };
}
