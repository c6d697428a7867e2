/**
 * How a supervision round is decided and recorded: the stop codes, the rules that end the
 * supervision (the round's own rule first, then no new sources and the wall-clock limit), and the
 * round's stored record before and after its research.
 */
import { type Because, because } from "../../because.ts";
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
  /**
   * The reason as a code with its values, for readers in other languages (`reason` stays English);
   * absent only for a stop planned by a version before codes.
   */
  because?: Because;
}

/** A rule of one round: a decision, or undefined to leave it to the rules every round has. */
export type RoundRule = (executed: number) => Decision | undefined;

// A stop's reason is stored as "<code>: <explanation>", readable in the history and parseable on resume.
export const stop = (code: StopCode, detail: string, why: Because): Decision => ({
  decision: "stop",
  code,
  reason: `${code}: ${detail}`,
  because: why,
});

export function codeOf(reason: string | null): StopCode {
  const code = reason?.match(/^([a-z_]+):/)?.[1] as StopCode | undefined;
  return code && STOP_CODES.includes(code) ? code : "max_rounds";
}

/** Round 0's rule: stop after it when supervision is off or allows no further round. */
export function roundZeroRule(config: ResearchConfig): RoundRule {
  return () => {
    if (!config.supervisionEnabled) {
      return stop(
        "supervision_disabled",
        "coverage supervision is turned off for this run",
        because("round_supervision_disabled"),
      );
    }
    if (config.maxSupervisionRounds === 0) {
      return stop("max_rounds", "no supervision rounds after round 0", because("round_no_rounds_after_zero"));
    }
    return undefined;
  };
}

/** A follow-up round's rule: the stop its plan already decided, else the round limit. */
export function followUpRule(config: ResearchConfig, record: SupervisionRoundRecord): RoundRule {
  const plannedStop = record.assessment?.plannedStop;
  return (executed) => {
    if (typeof plannedStop === "string") {
      const suffix = executed ? `; the ${executed} queued directive(s) were still researched` : "";
      const why = plannedBecause(record, executed);
      return {
        decision: "stop",
        code: codeOf(plannedStop),
        reason: plannedStop + suffix,
        ...(why ? { because: why } : {}),
      };
    }
    if (record.round >= config.maxSupervisionRounds) {
      const max = config.maxSupervisionRounds;
      return stop(
        "max_rounds",
        `reached the limit of ${max} supervision rounds`,
        because("round_max_rounds", { max }),
      );
    }
    return undefined;
  };
}

/**
 * The planned stop's code (stored beside it in the assessment), with `queued`: the directives still
 * researched after it, which the reader adds in words. A plan stored before codes has none (its
 * English reason is then shown as written).
 */
function plannedBecause(record: SupervisionRoundRecord, executed: number): Because | undefined {
  const planned = record.assessment?.plannedStopBecause as Because | undefined;
  if (!planned?.code) return undefined;
  return executed ? because(planned.code, { ...planned.values, queued: executed }) : planned;
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
  if (o.newSources <= 0) {
    const round = o.round;
    return stop(
      "no_new_sources",
      `round ${round} found no new sources`,
      because("round_no_new_sources", { round }),
    );
  }
  if (o.elapsedMs >= config.phaseTimeoutMs) {
    const seconds = Math.round(o.elapsedMs / 1000);
    const limit = Math.round(config.phaseTimeoutMs / 1000);
    return stop(
      "time_limit",
      `supervision ran ${seconds} s, over its ${limit} s limit`,
      because("round_time_limit", { seconds, limit }),
    );
  }
  const confidence = after.heuristic.confidence;
  return {
    decision: "continue",
    reason: `${o.executed} directive(s) researched, ${o.newSources} new source(s); heuristic confidence ${confidence.toFixed(2)}`,
    because: because("round_continue", {
      directives: o.executed,
      sources: o.newSources,
      coverage: Math.round(confidence * 100) / 100,
    }),
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
    because: null,
  };
}

/** The rounds as stored once `record` is saved (it replaces the stored row of its round). */
export function withRound(rounds: readonly SupervisionRoundRecord[], record: SupervisionRoundRecord) {
  return [...rounds.filter((r) => r.round !== record.round), record].sort((x, y) => x.round - y.round);
}
