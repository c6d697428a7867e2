/**
 * The OpenAPI path item of refreshing a report (app/api/runs/[id]/refresh).
 *
 * @internal to lib/server/runs/: a helper of its actions, not an action; adapters do not import it.
 */
import type { ZodOpenApiPathItemObject } from "zod-openapi";
import { errors, idPath, json, scoped, signedInErrors } from "../openapi/common.ts";
import { createdRunSchema } from "../openapi/views.ts";

export const runRefreshPath: ZodOpenApiPathItemObject = {
  post: {
    ...scoped("research"),
    tags: ["Runs"],
    summary: "Refresh a report: start its next version",
    description:
      "Starts a new version of this run's report: the same question and settings, `versionOf` the report's first run, seeded with this version's brief, read sources (with their stored text) and findings. Before research continues for what is new, each source this version's report cited is fetched again from its stored URL and compared by the SHA-256 of its normalised extracted text: `unchanged`, `changed` (the new text is stored and cited from) or `gone` (not citable in the new version); the new run's sources carry the verdict as `recheck`, and its events a `sources.rechecked` with the counts. No body. Counted against the runs rate limit. `409` when the run has no finished report.",
    requestParams: { path: idPath("The version to refresh.") },
    responses: {
      "201": json("Created and queued.", createdRunSchema),
      ...errors(...signedInErrors, 404, 409, 413, 422, 429),
    },
  },
};
