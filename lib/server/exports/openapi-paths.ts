/**
 * The export routes in the OpenAPI document (lib/server/openapi/registry.ts lists them).
 *
 * @internal to lib/server/exports/: a helper of its actions, not an action; adapters do not import it.
 */
import { z } from "zod";
import type { ZodOpenApiPathItemObject } from "zod-openapi";
import { errors, idPath, json, scoped } from "../openapi/common.ts";
import { runBundleSchema } from "./bundle-schema.ts";
import { contentTypes, type ReportFormat } from "./report-files.ts";

const tags = ["Runs"];

const fileOf = (format: ReportFormat, description: string) => ({
  description,
  content: { [contentTypes[format]]: { schema: z.string().meta({ format: "binary" }) } },
});

function reportFilePath(format: ReportFormat, what: string): ZodOpenApiPathItemObject {
  return {
    get: {
      ...scoped("read"),
      tags,
      summary: `Download the report as ${what}`,
      description: `An attachment named after the question: the report with its headings, lists, tables and emphasis, each citation a numbered ${format === "pdf" ? "link to" : "footnote with"} its source, and a Sources section with each cited source's title, URL, verdict and the stored passage its claims rest on. Counts against RATE_LIMIT_ACTIONS_PER_MINUTE. \`404\` before a report exists.`,
      requestParams: { path: idPath("The run.") },
      responses: { "200": fileOf(format, `The report as ${what}.`), ...errors(401, 404, 429) },
    },
  };
}

export const runReportPdfPath = reportFilePath("pdf", "PDF");
export const runReportDocxPath = reportFilePath("docx", "DOCX (Word)");

export const runBundlePath: ZodOpenApiPathItemObject = {
  get: {
    ...scoped("research"),
    tags,
    summary: "Download the run as a portable bundle",
    description:
      "One JSON file (`format: deep-research/run-bundle`, `schemaVersion: 1`): the run's question, settings (without a webhook URL), usage and the models it used, its report, claims with verdicts and passages, directives, sources with their stored text, and its event log. Never an owner, a share token or a secret. Streamed as it is written. `409` while the run has not ended; one export at a time per person and RATE_LIMIT_EXPORTS_PER_HOUR (`429`).",
    requestParams: { path: idPath("The run.") },
    responses: {
      "200": {
        description: "The bundle (a download).",
        content: { "application/json": { schema: runBundleSchema } },
      },
      ...errors(401, 403, 404, 409, 429),
    },
  },
};

export const runImportPath: ZodOpenApiPathItemObject = {
  post: {
    ...scoped("research"),
    tags,
    summary: "Open a run bundle as a read-only run of yours",
    description:
      "The body is a bundle from `GET /api/runs/{id}/bundle` of any instance. It is checked against its schema version (`422` for another version, an unknown key such as an owner id, or a field over its limit), within BUNDLE_IMPORT_MAX_MB (`413`) and your source-text quota (`413 quota_exceeded`); a refused bundle creates nothing. Everything gets a new id, nothing is fetched, and the run's verdicts are shown as recorded by the original instance.",
    requestBody: { content: { "application/json": { schema: runBundleSchema } } },
    responses: {
      "201": json("The new run.", z.object({ id: z.uuid() })),
      ...errors(400, 401, 403, 413, 422, 429),
    },
  },
};
