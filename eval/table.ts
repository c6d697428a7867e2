/** Plain-text tables for the terminal: one row per question and the overall row, then per directive. */
import type { QuestionMeasure } from "./measure.ts";
import type { Overall } from "./summary.ts";

export const COLUMNS = [
  "question",
  "completed",
  "citations",
  "resolved",
  "support",
  "unsupported",
  "read/directive",
  "language",
  "rounds",
  "tokens",
  "cost $",
] as const;

const pct = (r: number | null) => (r === null ? "-" : `${(r * 100).toFixed(0)}%`);
const mix = (s: Record<string, number>) =>
  Object.keys(s).length
    ? Object.entries(s)
        .sort(([a], [b]) => a.localeCompare(b))
        .map(([k, v]) => `${k} ${v}`)
        .join(", ")
    : "-";

function questionRow(q: QuestionMeasure): string[] {
  const lang = q.language.match === null ? "?" : q.language.match ? "yes" : "no";
  return [
    q.id,
    q.completed ? "yes" : `no (${q.status})`,
    String(q.citations.total),
    pct(q.citations.resolvedRate),
    mix(q.support),
    pct(q.unsupportedRate),
    q.sourcesReadPerDirective.toFixed(1),
    `${lang} (${q.language.question}/${q.language.report})`,
    String(q.rounds),
    String(q.tokens.total),
    q.costUsd.toFixed(4),
  ];
}

function overallRow(o: Overall): string[] {
  return [
    "OVERALL",
    `${o.completed}/${o.questions}`,
    String(o.citations),
    pct(o.resolvedRate),
    mix(o.support),
    pct(o.unsupportedRate),
    o.sourcesReadPerDirective.toFixed(1),
    `${o.languageMatches}/${o.languageChecked}`,
    o.rounds.toFixed(1),
    String(o.tokens),
    o.costUsd.toFixed(4),
  ];
}

export function renderTable(header: readonly string[], rows: string[][]): string {
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i].length)));
  const line = (cells: readonly string[]) =>
    cells
      .map((c, i) => c.padEnd(widths[i]))
      .join(" | ")
      .trimEnd();
  return [line(header), widths.map((w) => "-".repeat(w)).join("-+-"), ...rows.map(line)].join("\n");
}

export function resultTable(questions: QuestionMeasure[], overall: Overall): string {
  return renderTable(COLUMNS, [...questions.map(questionRow), overallRow(overall)]);
}

export function directiveLines(questions: QuestionMeasure[]): string {
  return questions
    .flatMap((q) => [
      `${q.id}:${q.error ? ` ${q.error}` : ""}`,
      ...q.directives.map(
        (d) => `  round ${d.round} [${d.status}] read ${d.sourcesRead} of ${d.sourcesSeen} seen — ${d.topic}`,
      ),
    ])
    .join("\n");
}
