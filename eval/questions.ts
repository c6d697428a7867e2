/** The question set `npm run eval` runs: a JSON file, checked here so a typo fails before any model call. */
import fs from "node:fs";
import { z } from "zod";
import { researchSettingsSchema } from "../lib/research/index.ts";

const questionSchema = z.strictObject({
  /** Stable name: `--compare` matches questions of two result files by it. */
  id: z.string().min(1),
  question: z.string().min(1),
  /** Run settings for this question, over the set's. */
  settings: researchSettingsSchema.optional(),
});

export const questionSetSchema = z.strictObject({
  /** Run settings for every question (same names as a run's settings). */
  settings: researchSettingsSchema.optional(),
  questions: z.array(questionSchema).min(1),
});

export type QuestionSet = z.infer<typeof questionSetSchema>;
export type EvalQuestion = z.infer<typeof questionSchema>;

export function loadQuestionSet(file: string): QuestionSet {
  const parsed = questionSetSchema.safeParse(JSON.parse(fs.readFileSync(file, "utf8")));
  if (!parsed.success) throw new Error(`${file} is not a question set: ${z.prettifyError(parsed.error)}`);
  const ids = parsed.data.questions.map((q) => q.id);
  const dup = ids.find((id, i) => ids.indexOf(id) !== i);
  if (dup) throw new Error(`${file}: the id "${dup}" is used twice`);
  return parsed.data;
}
