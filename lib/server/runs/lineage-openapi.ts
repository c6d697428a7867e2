/**
 * The OpenAPI path items of a run's lineage: research deeper (app/api/runs/[id]/deeper). Kept
 * beside the actions, out of paths-runs.ts, so the lineage routes stay one block.
 *
 * @internal to lib/server/runs/: a helper of its actions, not an action; adapters do not import it.
 */
import type { ZodOpenApiPathItemObject } from "zod-openapi";
import { errors, idPath, json, jsonBody, scoped, signedInErrors } from "../openapi/common.ts";
import { createdRunSchema } from "../openapi/views.ts";
import { deeperRequestSchema } from "./deeper.ts";

const tags = ["Runs"];
const runPath = { path: idPath("The run to research deeper.") };

export const runDeeperPath: ZodOpenApiPathItemObject = {
  post: {
    ...scoped("research"),
    tags,
    summary: "Research a finished run deeper",
    description:
      "Starts a child run (its JSON has `parentId`) seeded with this run's brief, its read sources with their stored text (not fetched again) and its findings as prior coverage, so its supervisor researches the gaps instead of repeating them. Without `question` the child researches this run's question deeper; with one, that question in this run's context. An empty body is `{}`. Counted against the runs rate limit. `409` when the run has no report.",
    requestParams: runPath,
    requestBody: jsonBody(deeperRequestSchema),
    responses: {
      "201": json("Created and queued.", createdRunSchema),
      ...errors(400, ...signedInErrors, 404, 409, 413, 422, 429),
    },
  },
};
