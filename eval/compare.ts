/** `npm run eval -- --compare a.json b.json`: what changed from one configuration to another. */
import fs from "node:fs";
import type { QuestionMeasure } from "./measure.ts";
import type { EvalResult, Overall } from "./summary.ts";
import { renderTable } from "./table.ts";

export function loadResult(file: string): EvalResult {
  const value = JSON.parse(fs.readFileSync(file, "utf8")) as EvalResult;
  if (value?.version !== 1 || !Array.isArray(value.questions) || !value.overall) {
    throw new Error(`${file} is not a result file of npm run eval`);
  }
  return value;
}

type Metric = [name: string, of: (o: Overall) => number | null];

const METRICS: Metric[] = [
  ["completed", (o) => o.completed],
  ["citations", (o) => o.citations],
  ["resolved rate", (o) => o.resolvedRate],
  ["supported", (o) => o.support.supported ?? 0],
  ["unsupported", (o) => o.support.unsupported ?? 0],
  ["unchecked", (o) => o.support.unchecked ?? 0],
  ["unsupported rate", (o) => o.unsupportedRate],
  ["read/directive", (o) => o.sourcesReadPerDirective],
  ["language matches", (o) => o.languageMatches],
  ["rounds", (o) => o.rounds],
  ["tokens", (o) => o.tokens],
  ["cost $", (o) => o.costUsd],
];

const show = (v: number | null) => (v === null ? "-" : Number.isInteger(v) ? String(v) : v.toFixed(3));
const delta = (a: number | null, b: number | null) => {
  if (a === null || b === null) return "-";
  const d = b - a;
  return d === 0 ? "0" : `${d > 0 ? "+" : ""}${show(d)}`;
};

/** A question's numbers as an Overall of one, so both tables use the same metrics. */
function asOverall(q: QuestionMeasure): Overall {
  return {
    questions: 1,
    completed: q.completed ? 1 : 0,
    citations: q.citations.total,
    citationsResolved: q.citations.resolved,
    citationsUnresolved: q.citations.unresolved,
    resolvedRate: q.citations.resolvedRate,
    support: q.support,
    unsupportedRate: q.unsupportedRate,
    sourcesReadPerDirective: q.sourcesReadPerDirective,
    languageMatches: q.language.match ? 1 : 0,
    languageChecked: q.language.match === null ? 0 : 1,
    rounds: q.rounds,
    tokens: q.tokens.total,
    costUsd: q.costUsd,
  };
}

function metricRows(label: string, a: Overall, b: Overall): string[][] {
  return METRICS.map(([name, of]) => [label, name, show(of(a)), show(of(b)), delta(of(a), of(b))]);
}

export function compareResults(a: EvalResult, b: EvalResult): string {
  const rows = metricRows("OVERALL", a.overall, b.overall);
  const bById = new Map(b.questions.map((q) => [q.id, q]));
  for (const qa of a.questions) {
    const qb = bById.get(qa.id);
    if (qb) rows.push(...metricRows(qa.id, asOverall(qa), asOverall(qb)).filter((r) => r[4] !== "0"));
  }
  const only = (x: EvalResult, y: EvalResult) =>
    x.questions.filter((q) => !y.questions.some((o) => o.id === q.id)).map((q) => q.id);
  const head = [
    `A: ${a.createdAt} model ${a.config.model ?? "-"} search ${a.config.searchProviders ?? "-"}`,
    `B: ${b.createdAt} model ${b.config.model ?? "-"} search ${b.config.searchProviders ?? "-"}`,
  ];
  const tail = [
    ...(only(a, b).length ? [`only in A: ${only(a, b).join(", ")}`] : []),
    ...(only(b, a).length ? [`only in B: ${only(b, a).join(", ")}`] : []),
  ];
  return [...head, "", renderTable(["question", "metric", "A", "B", "B-A"], rows), ...tail].join("\n");
}
