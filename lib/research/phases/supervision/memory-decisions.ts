/**
 * The supervisor's own earlier decisions as memory text: each round's assessment (round 0: how the
 * brief was decomposed) and what it delegated, read back from the round's stored `assessment`
 * record. Read leniently: the record is JSON written by earlier versions too.
 */
import type { DirectiveRecord, SupervisionRoundRecord } from "../../store.ts";

const str = (v: unknown): string | undefined => (typeof v === "string" && v.trim() ? v.trim() : undefined);
const num = (v: unknown): number | undefined => (typeof v === "number" && Number.isFinite(v) ? v : undefined);
const list = (v: unknown): unknown[] => (Array.isArray(v) ? v : []);
const field = (v: unknown, key: string): unknown =>
  v && typeof v === "object" ? (v as Record<string, unknown>)[key] : undefined;

function delegation(delegated: readonly DirectiveRecord[]): string {
  if (!delegated.length) return "Delegated: nothing.";
  const lines = delegated.map((d) => `- #${d.ordinal} (${d.priority}, ${d.status}): ${d.topic}`);
  return ["Delegated:", ...lines].join("\n");
}

function decomposition(a: Record<string, unknown>, delegated: readonly DirectiveRecord[]): string {
  const kind = str(a.questionKind) ?? "unclassified";
  const elements = list(a.comparedElements).filter((e): e is string => typeof e === "string");
  const head = `Decomposition of a ${kind.replace("_", " ")} question${elements.length ? ` comparing ${elements.join(", ")}` : ""}.`;
  const counts = [
    num(a.initialCount) !== undefined && `${a.initialCount} proposed`,
    num(a.finalCount) !== undefined && `${a.finalCount} stored`,
    a.revised === true && "revised after critique",
  ].filter(Boolean);
  return [head, counts.length ? `Plan: ${counts.join(", ")}.` : "", delegation(delegated)]
    .filter(Boolean)
    .join("\n");
}

function coverageAssessment(a: Record<string, unknown>, delegated: readonly DirectiveRecord[]): string {
  const overall = num(a.overallCoverage);
  const method = str(a.method) ?? "unknown";
  const head = `Assessment (${method}): overall coverage ${overall === undefined ? "unknown" : overall.toFixed(2)}, ${a.shouldContinue === true ? "continue" : "stop"}.`;
  const perDirective = list(a.directiveAssessments).map(
    (d) =>
      `- #${num(field(d, "directive")) ?? "?"}: ${str(field(d, "status")) ?? "?"} — ${str(field(d, "note")) ?? ""}`,
  );
  const created = new Set(delegated.map((d) => d.topic.trim().toLowerCase()));
  const refused = list(a.followUps)
    .map((f) => str(field(f, "topic")) ?? str(f))
    .filter((t): t is string => !!t && !created.has(t.toLowerCase()));
  return [
    head,
    str(a.rationale) ? `Rationale: ${str(a.rationale)}` : "",
    perDirective.length ? ["Per directive:", ...perDirective].join("\n") : "",
    delegation(delegated),
    refused.length
      ? ["Proposed but not stored (duplicate, vague or over a cap):", ...refused.map((t) => `- ${t}`)].join(
          "\n",
        )
      : "",
    str(a.plannedStop) ? `Decided to stop: ${str(a.plannedStop)}` : "",
  ]
    .filter(Boolean)
    .join("\n");
}

/** The round's decision as text, or "" when it recorded none worth remembering (e.g. a resume marker). */
export function renderDecision(
  record: SupervisionRoundRecord,
  delegated: readonly DirectiveRecord[],
): string {
  const a = record.assessment;
  if (!a) return "";
  if (record.method === "decomposition")
    return a.resumed === true && !delegated.length ? "" : decomposition(a, delegated);
  return coverageAssessment(a, delegated);
}
