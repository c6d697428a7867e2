/** A share as its owner sees it: never the token (nor its hash). */
import type { Share } from "../../../db/schema.ts";

export interface ShareView {
  id: string;
  label: string | null;
  createdAt: Date;
  expiresAt: Date | null;
  revokedAt: Date | null;
  /** Readers may download the report as a PDF. */
  allowDownload: boolean;
  /** Readers see the run's follow-up questions and answers too. */
  includeThread: boolean;
}

export const shareView = (s: Share): ShareView => ({
  id: s.id,
  label: s.label,
  createdAt: s.createdAt,
  expiresAt: s.expiresAt,
  revokedAt: s.revokedAt,
  allowDownload: s.allowDownload,
  includeThread: s.includeThread,
});
