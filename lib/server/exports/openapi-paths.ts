/** The export routes in the OpenAPI document (lib/server/openapi/registry.ts lists them). */
import { z } from "zod";
import type { ZodOpenApiPathItemObject } from "zod-openapi";
import { errors, idPath, scoped } from "../openapi/common.ts";
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
