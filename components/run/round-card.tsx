import { useFormatter, useTranslations } from "next-intl";
import type { Because } from "@/lib/research/ui";
import { plainReason } from "./activity-labels";
import { becauseText } from "./because-text";
import { roundCoverage } from "./coverage-data";
import { roundReasonText } from "./round-reason";
import type { Translate } from "./run-words";
import type { SupervisionRoundView } from "./types";

type Assessment = {
  method?: string;
  rationale?: string;
  /** A rationale the code wrote (the heuristic's), as a code; a model's own rationale has none. */
  rationaleBecause?: Because;
  shouldContinue?: boolean;
  error?: string;
  /** `gapBecause`: the measured gaps as codes (a heuristic follow-up's); a model's gap has none. */
  followUps?: ({ topic?: string; gap?: string; gapBecause?: Because[] } | string)[];
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

/** The plan review's criteria, in the order the card lists them. */
const criteria = ["redundancy", "coverage", "proportionality", "specificity"] as const;

/**
 * One supervision round as a card: round 0's plan (critique and revision), a later round's thinking,
 * assessment and follow-ups; what the round researched and why the supervisor went on or stopped.
 * The supervisor's own reasons, notes and follow-ups are the model's text, shown as written; the
 * reasons the code wrote are said from their codes in the page's language.
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
  const t = useTranslations("run.supervision");
  const words = useTranslations();
  const format = useFormatter();
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
        {t("round", { round: r.round })}
      </h3>
      {r.round === 0 ? <PlanDetails a={a} planned={r.directivesGenerated} /> : <CheckDetails r={r} a={a} />}
      <p className="text-muted">
        {r.decision === null
          ? runEnded
            ? t("endedWithRun")
            : t("researching", { count: directivesInRound || r.directivesGenerated })
          : t("researched", {
              count: r.directivesExecuted,
              sources: r.newSources,
              coverage: coverage === null ? "none" : format.number(coverage, { style: "percent" }),
            })}
      </p>
      {r.decision && (
        <p data-testid="round-decision">
          <span className="font-medium">{r.decision === "continue" ? t("continued") : t("stopped")} </span>
          {roundReasonText(words, r.because, r.reason ?? "")}
        </p>
      )}
    </article>
  );
}

function PlanDetails({ a, planned }: { a: Assessment; planned: number }) {
  const t = useTranslations("run.supervision");
  const critique = a.critique as
    | Record<string, { status?: string; note?: string } | string>
    | null
    | undefined;
  return (
    <>
      <p>
        {t("planned", { count: a.finalCount ?? planned, kind: a.questionKind ?? "none" })}
        {a.generationFailed ? ` ${t("planFailed")}` : ""}
      </p>
      {critique && "failed" in critique ? (
        <p className="text-muted">{t("critiqueFailed")}</p>
      ) : critique ? (
        <div>
          <p className="font-medium">{t("review")}</p>
          <ul className="ml-4 list-disc text-xs">
            {criteria.map((name) => {
              const c = critique[name];
              if (!c || typeof c === "string") return null;
              return (
                <li key={name}>
                  {t("criterion", { name, issue: c.status === "ISSUE" ? "yes" : "no" })}
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
            ? t("revised", {
                before: a.initialCount ?? "?",
                after: a.finalCount ?? "?",
                changes: changes(a, t),
              })
            : t("kept", { changes: changes(a, t) })}
        </p>
      )}
    </>
  );
}

function changes(a: Assessment, t: ReturnType<typeof useTranslations<"run.supervision">>): string {
  const parts = [
    a.added ? t("added", { count: a.added }) : "",
    a.removed ? t("removed", { count: a.removed }) : "",
    a.merged ? t("merged", { count: a.merged }) : "",
  ].filter(Boolean);
  return parts.length ? t("changes", { list: parts.join(", ") }) : "";
}

function CheckDetails({ r, a }: { r: SupervisionRoundView; a: Assessment }) {
  const t = useTranslations("run.supervision");
  const words = useTranslations();
  const followUps = (a.followUps ?? []).map((f) => (typeof f === "string" ? { topic: f } : f));
  return (
    <>
      {r.think && (
        <details>
          <summary className="cursor-pointer text-xs font-medium">{t("thinking")}</summary>
          <p className="mt-1 whitespace-pre-wrap text-xs text-muted">{r.think}</p>
        </details>
      )}
      {a.rationale && (
        <p>
          <span className="font-medium">{t("assessment", { more: a.shouldContinue ? "yes" : "no" })} </span>
          {a.method === "heuristic" || a.method === "heuristic_gate" ? `${t("heuristic")} ` : ""}
          {becauseText(words, a.rationaleBecause, plainReason(a.rationale))}
        </p>
      )}
      {followUps.length > 0 && (
        <div>
          <p className="font-medium">{t("followUps")}</p>
          <ul className="ml-4 list-disc text-xs">
            {followUps.map((f) => (
              <li key={f.topic}>
                {f.topic}
                {f.gap ? <span className="text-muted"> — {t("gap", { gap: gapText(words, f) })}</span> : null}
              </li>
            ))}
          </ul>
        </div>
      )}
    </>
  );
}

/** A follow-up's gap: measured gaps in the page's words, a model's gap as it wrote it. */
function gapText(t: Translate, f: { gap?: string; gapBecause?: Because[] }): string {
  if (!f.gapBecause?.length) return f.gap ?? "";
  const written = f.gap?.split("; ") ?? [];
  return f.gapBecause
    .map((why, i) => becauseText(t, why, written[i] ?? ""))
    .join(t("runEvents.listSeparator"));
}
