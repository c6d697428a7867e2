/**
 * The OpenAPI path item of a run's follow-up questions (app/api/runs/[id]/questions).
 *
 * @internal to lib/server/questions/: a helper of its actions, not an action; adapters do not import it.
 */
import { z } from "zod";
import type { ZodOpenApiPathItemObject } from "zod-openapi";
import { errors, idPath, json, jsonBody, scoped, signedInErrors, uuid } from "../openapi/common.ts";
import { askQuestionRequestSchema, questionViewSchema } from "./schemas.ts";

const tags = ["Runs"];
const runPath = { path: idPath("The run.") };

export const runQuestionsPath: ZodOpenApiPathItemObject = {
  get: {
    ...scoped("read"),
    tags,
    summary: "The run's follow-up questions and their answers",
    description:
      "Oldest first. `status` is queued, answering, answered, not_in_sources (the run's sources do not answer it: `answer` is null) or failed.",
    requestParams: runPath,
    responses: {
      "200": json("The thread.", z.array(questionViewSchema)),
      ...errors(...signedInErrors, 404),
    },
  },
  post: {
    ...scoped("research"),
    tags,
    summary: "Ask a follow-up question about the run's report",
    description:
      "Answered from the report and the run's stored sources, citing them by number; the answer arrives as `question.*` events on the run's event stream and in GET. `409` when the run has no report.",
    requestParams: runPath,
    requestBody: jsonBody(askQuestionRequestSchema),
    responses: {
      "202": json("Accepted: the question is being answered.", z.object({ id: uuid("The question.") })),
      ...errors(400, ...signedInErrors, 404, 409, 413, 422, 429),
    },
  },
};
