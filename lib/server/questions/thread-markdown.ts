/**
 * The report download with its thread: each answered question under the report, and the sources
 * the answers cite beyond the report's own (by their thread numbers), so every [N] in the file
 * resolves. Questions still being answered, failed ones and those the sources do not answer are left out.
 */
import { listRunQuestions } from "../../../db/queries/questions.ts";
import { getRun } from "../../../db/queries/runs.ts";
import { listSources } from "../../../db/queries/sources.ts";
import type { Runtime } from "../../jobs/runtime.ts";
import { citationNumbersIn, REPORT_WORDS, runReportLanguage } from "../../research/index.ts";

const linkText = (s: string) => s.replace(/[[\]]/g, "");

export async function reportWithThread(rt: Runtime, runId: string, report: string): Promise<string> {
  const answered = (await listRunQuestions(rt.handle.db, runId)).filter(
    (q) => q.status === "answered" && q.answer,
  );
  if (!answered.length) return report;
  const inReport = new Set(citationNumbersIn(report));
  const extra = new Map<number, string>();
  for (const q of answered) for (const c of q.citations) if (!inReport.has(c.n)) extra.set(c.n, c.sourceId);
  const run = await getRun(rt.handle.db, runId);
  // In the report's language, as every word the code writes into it.
  const words = REPORT_WORDS[runReportLanguage(run?.settings, run?.question ?? report)];
  const parts = [report.trimEnd(), `## ${words.questions}`];
  for (const q of answered)
    parts.push(`### ${q.question.replace(/\s+/g, " ").trim()}`, (q.answer as string).trim());
  if (extra.size) {
    const byId = new Map((await listSources(rt.handle.db, runId)).map((s) => [s.id, s]));
    const lines = [...extra]
      .sort(([a], [b]) => a - b)
      .flatMap(([n, id]) => {
        const s = byId.get(id);
        return s
          ? [`[${n}] [${linkText(s.title || s.domain || s.url)}](${s.url.replace(/\)/g, "%29")})`]
          : [];
      });
    parts.push(`### ${words.furtherSources}`, lines.join("\n\n"));
  }
  return `${parts.join("\n\n")}\n`;
}
