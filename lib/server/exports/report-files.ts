/**
 * The owner's report as a file (GET /api/runs/:id/report.pdf, /report.docx, the run page's buttons,
 * the MCP tool export_report): read through the owner check, drawn on the server. Drawing takes the
 * CPU, so each counts against the person's run-actions rate limit.
 */
import { getRunForOwner } from "../../../db/queries/runs.ts";
import type { Env } from "../../env.ts";
import { AppError } from "../../errors.ts";
import { consumeRateLimit } from "../rate-limits.ts";
import type { Runtime } from "../runtime.ts";
import { renderDocx } from "./docx.ts";
import { fileBaseName } from "./file-name.ts";
import { loadExportDocument } from "./load-report.ts";
import { renderPdf } from "./pdf.ts";

export const reportFormats = ["pdf", "docx"] as const;
export type ReportFormat = (typeof reportFormats)[number];

export interface ReportFile {
  bytes: Buffer;
  filename: string;
  contentType: string;
}

export const contentTypes: Record<ReportFormat, string> = {
  pdf: "application/pdf",
  docx: "application/vnd.openxmlformats-officedocument.wordprocessingml.document",
};

const renderers: Record<
  ReportFormat,
  (doc: Awaited<ReturnType<typeof loadExportDocument>>) => Promise<Buffer>
> = {
  pdf: renderPdf,
  docx: renderDocx,
};

/** The owner's report as a PDF or DOCX; 404 for another person's run or a run without a report. */
export async function exportReportFile(
  rt: Runtime,
  runId: string,
  ownerId: string,
  format: ReportFormat,
  env: Env = process.env,
): Promise<ReportFile> {
  const db = rt.handle.db;
  const run = await getRunForOwner(db, runId, ownerId);
  if (!run) throw new AppError("not_found", "No such run.");
  const doc = await loadExportDocument(db, run);
  await consumeRateLimit(rt.handle, "actions", `user:${ownerId}`, env);
  return {
    bytes: await renderers[format](doc),
    filename: `${fileBaseName(run.question)}.${format}`,
    contentType: contentTypes[format],
  };
}

/** The download response of a report file: an attachment, never rendered in the app's origin. */
export function reportFileResponse(file: ReportFile): Response {
  return new Response(new Uint8Array(file.bytes), {
    headers: {
      "content-type": file.contentType,
      "content-disposition": `attachment; filename="${file.filename}"`,
      "content-length": String(file.bytes.byteLength),
      "cache-control": "no-store",
      "x-content-type-options": "nosniff",
    },
  });
}
