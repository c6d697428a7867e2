/** Request and response shapes of a run's follow-up questions (the API, the form, the MCP tool). */
import { z } from "zod";
import { questionStatuses } from "../../research/index.ts";
import { citationSupports } from "../../research/ui.ts";
import { becauseSchema } from "../runs/because-schema.ts";

export const askQuestionRequestSchema = z.strictObject({
  question: z.string().trim().min(3, "question must be at least 3 characters").max(2000),
});
export type AskQuestionRequest = z.infer<typeof askQuestionRequestSchema>;

export const questionViewSchema = z.object({
  id: z.uuid(),
  question: z.string(),
  status: z.enum(questionStatuses),
  answer: z
    .string()
    .nullable()
    .describe("Markdown; each [N] is the thread's number of a read source of the run"),
  citations: z.array(
    z.object({
      n: z.number().int(),
      sourceId: z.uuid(),
      sentence: z.string(),
      support: z.enum(citationSupports),
      reason: z.string(),
      because: becauseSchema.nullable(),
      passage: z.string().nullable(),
    }),
  ),
  model: z.string().nullable(),
  error: z.string().nullable().describe("Why it was not answered (failed), in plain words"),
  errorBecause: becauseSchema.nullable(),
  createdAt: z.string(),
  answeredAt: z.string().nullable(),
});
export type QuestionView = z.infer<typeof questionViewSchema>;
