/**
 * The OpenAPI path items of a report's versions and their diff (app/api/runs/[id]/versions and
 * app/api/runs/[id]/diff).
 *
 * @internal to lib/server/runs/: a helper of its actions, not an action; adapters do not import it.
 */
import { z } from "zod";
import type { ZodOpenApiPathItemObject } from "zod-openapi";
import { CLAIM_MATCH_THRESHOLD } from "../../research/index.ts";
import { errors, idPath, json, scoped, timestamp, uuid } from "../openapi/common.ts";
import { diffQuerySchema } from "./diff.ts";

const tags = ["Runs"];

const versionSchema = z
  .object({
    id: uuid("The version's run."),
    createdAt: timestamp(),
    status: z.string().meta({ description: "The run's status, e.g. running, completed." }),
  })
  .meta({ id: "RunVersion" });

const claimSchema = z
  .object({
    text: z.string().meta({ description: "The cited sentence, as plain text." }),
    sources: z.array(z.string()).meta({ description: "The URLs of the sources it cites." }),
  })
  .meta({ id: "Claim" });

const diffSourceSchema = z.object({ url: z.string(), title: z.string() }).meta({ id: "DiffSource" });

const diffSchema = z
  .object({
    runId: uuid("This run: the newer version (after)."),
    against: uuid("The run compared with (before)."),
    differ: z
      .boolean()
      .meta({ description: "A claim was added, removed or changed, or a cited source changed." }),
    claims: z.object({
      added: z.array(claimSchema),
      removed: z.array(claimSchema),
      changed: z.array(z.object({ before: claimSchema, after: claimSchema })),
    }),
    sources: z.object({
      added: z.array(diffSourceSchema),
      removed: z.array(diffSourceSchema),
      changed: z.array(diffSourceSchema).meta({ description: "Cited in both; the stored text differs." }),
    }),
  })
  .meta({ id: "RunDiff" });

export const runVersionsPath: ZodOpenApiPathItemObject = {
  get: {
    ...scoped("read"),
    tags,
    summary: "The versions of the report this run belongs to, oldest first",
    description:
      "The first run and every run refreshed from it (they share `versionOf`). A run without other versions lists itself. A malformed id is `400`; another person's run `404`.",
    requestParams: { path: idPath("Any version of the report.") },
    responses: { "200": json("The versions.", z.array(versionSchema)), ...errors(400, 401, 404) },
  },
};

export const runDiffPath: ZodOpenApiPathItemObject = {
  get: {
    ...scoped("read"),
    tags,
    summary: "What changed between two versions of a report, claim by claim",
    description: `A claim is a cited sentence with its sources' URLs. Claims are aligned by word overlap (Dice coefficient of their normalised words ≥ ${CLAIM_MATCH_THRESHOLD}); an aligned claim whose figures or cited URLs differ is \`changed\` (before/after), others are \`added\` or \`removed\`. A cited source is \`changed\` when its stored text differs. \`400\` for a missing or malformed id, \`404\` when either run (including \`against\`) is not yours, \`409\` when either has no report.`,
    requestParams: { path: idPath("The newer version (after)."), query: diffQuerySchema },
    responses: { "200": json("The diff.", diffSchema), ...errors(400, 401, 404, 409) },
  },
};
