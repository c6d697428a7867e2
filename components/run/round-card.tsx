import { plainReason } from "./activity-labels";
import { percent, roundCoverage } from "./coverage-data";
import type { SupervisionRoundView } from "./types";

type Assessment = {
  method?: string;
  rationale?: string;
  shouldContinue?: boolean;
  error?: string;
  followUps?: ({ topic?: string; gap?: string } | string)[];
  critique?: Record<string, unknown> | null;
  revised?: boolean;
  initialCount?: number;
  finalCount?: number;
  added?: number;
  removed?: number;
  merged?: number;
  questionKind?: string | null;
  generationFailed?: string;
};

const criteriaNames: Record<string, string> = {
  redundancy: "No overlap",
  coverage: "Covers the question",
  proportionality: "Right number of topics",
  specificity: "Specific enough",
};

const questionKinds: Record<string, string> = {
  simple_factual: "a simple factual question",
  comparison: "a comparison",
  typical: "a typical research question",
};

/**
 * One supervision round as a card: round 0's plan (critique and revision), a later round's thinking,
 * assessment and follow-ups; what the round researched and why the supervisor went on or stopped.
 */
export function RoundCard({
  round: r,
  directivesInRound,
  runEnded,
}: {
  round: SupervisionRoundView;
  /** Directives stored for this round (round 0's are researched while its record says 0 executed). */
  directivesInRound: number;
  runEnded: boolean;
}) {
  const a = (r.assessment ?? {}) as Assessment;
  const coverage = roundCoverage(r);
  return (
    <article
      data-testid="round-card"
      data-round={r.round}
      aria-labelledby={`round-${r.round}`}
      className="space-y-2 rounded-lg border border-zinc-200 p-3 text-sm dark:border-zinc-800"
    >
      <h3 id={`round-${r.round}`} className="font-medium">
        Round {r.round} · {r.round === 0 ? "Planning" : "Coverage check"}
      </h3>
      {r.round === 0 ? <PlanDetails a={a} planned={r.directivesGenerated} /> : <CheckDetails r={r} a={a} />}
      <p className="text-muted">
        {r.decision === null
          ? runEnded
            ? "Ended with the run."
            : `Researching ${directivesInRound || r.directivesGenerated} ${directivesInRound === 1 ? "directive" : "directives"}…`
          : `${r.directivesExecuted} ${r.directivesExecuted === 1 ? "directive" : "directives"} researched, ${r.newSources} new ${r.newSources === 1 ? "source" : "sources"}${coverage === null ? "" : `; coverage ${percent(coverage)}`}.`}
      </p>
      {r.decision && (
        <p data-testid="round-decision">
          <span className="font-medium">{r.decision === "continue" ? "Continued: " : "Stopped: "}</span>
          {plainReason(r.reason ?? "")}
        </p>
      )}
    </article>
  );
}

function PlanDetails({ a, planned }: { a: Assessment; planned: number }) {
  const critique = a.critique as
    | Record<string, { status?: string; note?: string } | string>
    | null
    | undefined;
  return (
    <>
      <p>
        Planned {a.finalCount ?? planned} {(a.finalCount ?? planned) === 1 ? "directive" : "directives"}
        {a.questionKind && questionKinds[a.questionKind]
          ? `, reading the question as ${questionKinds[a.questionKind]}`
          : ""}
        .{a.generationFailed ? " Planning failed, so the brief is researched as one topic." : ""}
      </p>
      {critique && "failed" in critique ? (
        <p className="text-muted">The plan could not be reviewed; it was kept as planned.</p>
      ) : critique ? (
        <div>
          <p className="font-medium">Review of the plan</p>
          <ul className="ml-4 list-disc text-xs">
            {Object.entries(criteriaNames).map(([key, name]) => {
              const c = critique[key];
              if (!c || typeof c === "string") return null;
              return (
                <li key={key}>
                  {name}: {c.status === "ISSUE" ? "issue" : "fine"}
                  {c.note ? ` — ${c.note}` : ""}
                </li>
              );
            })}
          </ul>
          {typeof critique.verdict === "string" && <p className="text-xs text-muted">{critique.verdict}</p>}
        </div>
      ) : null}
      {a.revised !== undefined && (
        <p className="text-xs text-muted">
          {a.revised
            ? `Revised from ${a.initialCount ?? "?"} to ${a.finalCount ?? "?"} directives${changes(a)}.`
            : `Kept as generated${changes(a)}.`}
        </p>
      )}
    </>
  );
}

function changes(a: Assessment): string {
  const parts = [
    a.added ? `${a.added} added` : "",
    a.removed ? `${a.removed} removed` : "",
    a.merged ? `${a.merged} merged` : "",
  ].filter(Boolean);
  return parts.length ? ` (${parts.join(", ")})` : "";
}

function CheckDetails({ r, a }: { r: SupervisionRoundView; a: Assessment }) {
  const followUps = (a.followUps ?? []).map((f) => (typeof f === "string" ? { topic: f } : f));
  return (
    <>
      {r.think && (
        <details>
          <summary className="cursor-pointer text-xs font-medium">Supervisor's thinking</summary>
          <p className="mt-1 whitespace-pre-wrap text-xs text-muted">{r.think}</p>
        </details>
      )}
      {a.rationale && (
        <p>
          <span className="font-medium">
            {a.shouldContinue ? "Assessment: more research needed. " : "Assessment: enough. "}
          </span>
          {a.method === "heuristic" || a.method === "heuristic_gate" ? "(From the numbers of sources.) " : ""}
          {plainReason(a.rationale)}
        </p>
      )}
      {followUps.length > 0 && (
        <div>
          <p className="font-medium">Follow-ups</p>
          <ul className="ml-4 list-disc text-xs">
            {followUps.map((f) => (
              <li key={f.topic}>
                {f.topic}
                {f.gap ? <span className="text-muted"> — gap: {f.gap}</span> : null}
              </li>
            ))}
          </ul>
        </div>
      )}
    </>
  );
}
