/**
 * `npm run eval`: runs a question set through the real engine with whatever models and search the
 * environment configures (MODEL, SEARCH_PROVIDERS, ... as for the app), prints per question and
 * overall what the runs stored, and writes the numbers as JSON for `--compare`.
 *
 *   npm run eval [-- --questions eval/questions.json] [--out eval/results/<time>.json]
 *   npm run eval -- --compare a.json b.json
 *
 * Exits 1 when no question completed (e.g. nothing configured), 2 on wrong arguments.
 */
import fs from "node:fs";
import path from "node:path";
import { parseArgs } from "node:util";
import { compareResults, loadResult } from "./compare.ts";
import { runQuestionSet } from "./execute.ts";
import { loadQuestionSet } from "./questions.ts";
import { type EvalResult, overallOf } from "./summary.ts";
import { directiveLines, resultTable } from "./table.ts";

const here = import.meta.dirname;

function parse() {
  try {
    return parseArgs({
      allowPositionals: true,
      options: {
        questions: { type: "string", default: path.join(here, "questions.json") },
        out: { type: "string" },
        compare: { type: "boolean", default: false },
      },
    });
  } catch (e) {
    console.error(`npm run eval: ${(e as Error).message}`);
    process.exit(2);
  }
}

const { values, positionals } = parse();

if (values.compare) {
  if (positionals.length !== 2) {
    console.error("usage: npm run eval -- --compare a.json b.json");
    process.exit(2);
  }
  console.log(compareResults(loadResult(positionals[0]), loadResult(positionals[1])));
  process.exit(0);
}

const set = loadQuestionSet(values.questions);
const env = process.env;
console.log(
  `eval: ${set.questions.length} question(s) from ${values.questions}; model ${env.MODEL ?? "(unset)"}, search ${env.SEARCH_PROVIDERS ?? "(default)"}`,
);
const questions = await runQuestionSet({
  set,
  env,
  onQuestion: (m) => console.log(`  ${m.id}: ${m.status} in ${m.seconds.toFixed(1)} s`),
});
const result: EvalResult = {
  version: 1,
  createdAt: new Date().toISOString(),
  config: {
    model: env.MODEL ?? null,
    searchProviders: env.SEARCH_PROVIDERS ?? null,
    questionsFile: values.questions,
  },
  questions,
  overall: overallOf(questions),
};
const out = values.out ?? path.join(here, "results", `${result.createdAt.replace(/[:.]/g, "-")}.json`);
fs.mkdirSync(path.dirname(out), { recursive: true });
fs.writeFileSync(out, `${JSON.stringify(result, null, 2)}\n`);

console.log(
  `\n${resultTable(questions, result.overall)}\n\nsources per directive:\n${directiveLines(questions)}`,
);
console.log(`\nwrote ${out}`);
process.exit(result.overall.completed > 0 ? 0 : 1);
