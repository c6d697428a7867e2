/**
 * How a supervision round is decided and recorded: the stop codes, the rules that end the
 * supervision (the round's own rule first, then no new sources and the wall-clock limit), and the
 * round's stored record before and after its research.
 */
import type { ResearchConfig } from "../../config.ts";
import type { SupervisionRoundRecord } from "../../store.ts";
import type { RoundDecision } from "../../vocabulary.ts";
import type { CoverageReport } from "./coverage.ts";
import { coverageRecord } from "./coverage.ts";

export type StopCode =
  | "supervision_disabled"
  | "max_rounds"
  | "coverage_sufficient"
  | "no_new_directives"
  | "no_new_sources"
  | "time_limit";

const STOP_CODES: readonly StopCode[] = [
  "supervision_disabled",
  "max_rounds",
  "coverage_sufficient",
  "no_new_directives",
  "no_new_sources",
  "time_limit",
];

export interface Decision {
  decision: RoundDecision;
  code?: StopCode;
  reason: string;
}

/** A rule of one round: a decision, or undefined to leave it to the rules every round has. */
export type RoundRule = (executed: number) => Decision | undefined;

// A stop's reason is stored as "<code>: <explanation>", readable in the history and parseable on resume.
export const stop = (code: StopCode, detail: string): Decision => ({
  decision: "stop",
  code,
  reason: `${code}: ${detail}`,
});

export function codeOf(reason: string | null): StopCode {
  const code = reason?.match(/^([a-z_]+):/)?.[1] as StopCode | undefined;
  return code && STOP_CODES.includes(code) ? code : "max_rounds";
}

/** Round 0's rule: stop after it when supervision is off or allows no further round. */
export function roundZeroRule(config: ResearchConfig): RoundRule {
  return () => {
    if (!config.supervisionEnabled) {
      return stop("supervision_disabled", "coverage supervision is turned off for this run");
    }
    if (config.maxSupervisionRounds === 0) return stop("max_rounds", "no supervision rounds after round 0");
    return undefined;
  };
}

/** A follow-up round's rule: the stop its plan already decided, else the round limit. */
export function followUpRule(config: ResearchConfig, record: SupervisionRoundRecord): RoundRule {
  const plannedStop = record.assessment?.plannedStop;
  return (executed) => {
    if (typeof plannedStop === "string") {
      const suffix = executed ? `; the ${executed} queued directive(s) were still researched` : "";
      return { decision: "stop", code: codeOf(plannedStop), reason: plannedStop + suffix };
    }
    if (record.round >= config.maxSupervisionRounds) {
      return stop("max_rounds", `reached the limit of ${config.maxSupervisionRounds} supervision rounds`);
    }
    return undefined;
  };
}

/** What a round's research changed, against the coverage recorded before it. */
export function roundYield(record: SupervisionRoundRecord, after: CoverageReport) {
  const before = record.coverageBefore as {
    totalSources?: number;
    directives?: { directiveId: string; status: string }[];
  };
  const attemptedBefore = new Set(
    (before?.directives ?? [])
      .filter((d) => d.status === "done" || d.status === "failed")
      .map((d) => d.directiveId),
  );
  const executed = after.directives.filter(
    (d) => (d.status === "done" || d.status === "failed") && !attemptedBefore.has(d.directiveId),
  ).length;
  return { executed, newSources: after.totalSources - (before?.totalSources ?? 0) };
}

/** The round's own rule first, then: no new sources, the wall-clock limit, else continue. */
export function decideRound(
  config: ResearchConfig,
  o: { round: number; rule: RoundRule; executed: number; newSources: number; elapsedMs: number },
  after: CoverageReport,
): Decision {
  const ruled = o.rule(o.executed);
  if (ruled) return ruled;
  if (o.newSources <= 0) return stop("no_new_sources", `round ${o.round} found no new sources`);
  if (o.elapsedMs >= config.phaseTimeoutMs) {
    return stop(
      "time_limit",
      `supervision ran ${Math.round(o.elapsedMs / 1000)} s, over its ${Math.round(config.phaseTimeoutMs / 1000)} s limit`,
    );
  }
  return {
    decision: "continue",
    reason: `${o.executed} directive(s) researched, ${o.newSources} new source(s); heuristic confidence ${after.heuristic.confidence.toFixed(2)}`,
  };
}

/** A round's record as planned: not yet researched, not yet decided. */
export function plannedRecord(
  fields: Pick<SupervisionRoundRecord, "round" | "method" | "directivesGenerated" | "think" | "assessment">,
  coverageBefore: CoverageReport,
): SupervisionRoundRecord {
  return {
    ...fields,
    directivesExecuted: 0,
    newSources: 0,
    coverageBefore: coverageRecord(coverageBefore),
    coverageAfter: null,
    decision: null,
    reason: null,
  };
}

/** The rounds as stored once `record` is saved (it replaces the stored row of its round). */
export function withRound(rounds: readonly SupervisionRoundRecord[], record: SupervisionRoundRecord) {
  return [...rounds.filter((r) => r.round !== record.round), record].sort((x, y) => x.round - y.round);
}
