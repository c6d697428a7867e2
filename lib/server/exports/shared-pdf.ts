/**
 * GET /share/:token/report.pdf: the shared report as a PDF, for anyone holding a live link whose
 * owner allowed downloads — else 404, like an unknown link. The owner's private library documents
 * are redacted as on the share page. Drawing takes the CPU, so it counts against the run-actions
 * rate limit, per link.
 */
import { liveShareForToken } from "../../../db/queries/shares.ts";
import type { Env } from "../../env.ts";
import { AppError } from "../../errors.ts";
import { consumeRateLimit } from "../rate-limits.ts";
import type { Runtime } from "../runtime.ts";
import { fileBaseName } from "./file-name.ts";
import { loadExportDocument } from "./load-report.ts";
import { renderPdf } from "./pdf.ts";
import { contentTypes, type ReportFile } from "./report-files.ts";

const TOKEN = /^[A-Za-z0-9_-]{20,100}$/;

export async function sharedReportPdf(
  rt: Runtime,
  token: string,
  env: Env = process.env,
  now = new Date(),
): Promise<ReportFile> {
  const db = rt.handle.db;
  const found = TOKEN.test(token) ? await liveShareForToken(db, token, now) : undefined;
  if (!found?.share.allowDownload) throw new AppError("not_found", "No such shared report.");
  const doc = await loadExportDocument(db, found.run, { forShare: true });
  await consumeRateLimit(rt.handle, "actions", `share:${found.share.id}`, env);
  return {
    bytes: await renderPdf(doc),
    filename: `${fileBaseName(found.run.question)}.pdf`,
    contentType: contentTypes.pdf,
  };
}
