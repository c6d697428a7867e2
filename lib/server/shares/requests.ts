/** The body of POST /api/runs/:id/shares: optional, and every field in it optional. */
import { z } from "zod";
import { AppError } from "../../errors.ts";
import { readJson } from "../../http.ts";

export const shareRequestSchema = z.strictObject({
  /** Whom the link is for, as a note to the owner. */
  label: z.string().trim().max(100).optional(),
  expiresInDays: z.int().min(1).max(365).optional(),
  /** Readers of the link may download the report as a PDF (GET /share/:token/report.pdf). */
  allowDownload: z.boolean().optional(),
  /**
   * The link also shows the run's follow-up questions and answers, under the report's private-document
   * rules. Off by default: the owner chooses.
   */
  includeThread: z.boolean().optional(),
});
export type ShareRequest = z.infer<typeof shareRequestSchema>;

/** The share request; an empty body (or none) asks for a link without label or expiry. */
export async function readShareRequest(req: Request): Promise<ShareRequest> {
  const text = await req.clone().text();
  if (text.trim() === "") return {};
  const body = await readJson(req, shareRequestSchema);
  if (body.label === "") return { ...body, label: undefined };
  return body;
}

/** A share id in a route: anything that is not a UUID names no share. */
export function shareIdOrNotFound(raw: string): string {
  if (!z.uuid().safeParse(raw).success) throw new AppError("not_found", "No such share.");
  return raw;
}
