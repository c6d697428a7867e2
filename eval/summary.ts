/** The overall numbers of a question set and the JSON file `npm run eval` writes. */
import type { QuestionMeasure } from "./measure.ts";

export interface Overall {
  questions: number;
  completed: number;
  citations: number;
  citationsResolved: number;
  citationsUnresolved: number;
  resolvedRate: number | null;
  support: Record<string, number>;
  unsupportedRate: number | null;
  /** Mean over every directive of every question. */
  sourcesReadPerDirective: number;
  /** Questions whose report is in the question's language, of those where both could be told. */
  languageMatches: number;
  languageChecked: number;
  /** Mean supervision rounds per question. */
  rounds: number;
  tokens: number;
  costUsd: number;
}

export interface EvalResult {
  version: 1;
  createdAt: string;
  /** What was evaluated: compare two files made with different values here. */
  config: { model: string | null; searchProviders: string | null; questionsFile: string };
  questions: QuestionMeasure[];
  overall: Overall;
}

const sum = (xs: number[]) => xs.reduce((a, b) => a + b, 0);
const ratio = (n: number, d: number) => (d > 0 ? n / d : null);

export function overallOf(qs: QuestionMeasure[]): Overall {
  const support: Record<string, number> = {};
  for (const q of qs) for (const [k, v] of Object.entries(q.support)) support[k] = (support[k] ?? 0) + v;
  const citations = sum(qs.map((q) => q.citations.total));
  const resolved = sum(qs.map((q) => q.citations.resolved));
  const unresolved = sum(qs.map((q) => q.citations.unresolved));
  const directives = qs.flatMap((q) => q.directives);
  const checked = qs.filter((q) => q.language.match !== null);
  return {
    questions: qs.length,
    completed: qs.filter((q) => q.completed).length,
    citations,
    citationsResolved: resolved,
    citationsUnresolved: unresolved,
    resolvedRate: ratio(resolved, resolved + unresolved),
    support,
    unsupportedRate: ratio(support.unsupported ?? 0, citations),
    sourcesReadPerDirective: directives.length
      ? sum(directives.map((d) => d.sourcesRead)) / directives.length
      : 0,
    languageMatches: checked.filter((q) => q.language.match).length,
    languageChecked: checked.length,
    rounds: qs.length ? sum(qs.map((q) => q.rounds)) / qs.length : 0,
    tokens: sum(qs.map((q) => q.tokens.total)),
    costUsd: sum(qs.map((q) => q.costUsd)),
  };
}
