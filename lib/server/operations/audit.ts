/**
 * The admins' audit log: backups (who, when, size) and password resets, shown to every admin on
 * the admin page and at GET /api/admin/audit. Nothing removes an entry.
 */
import { insertAuditEntry, listAuditEntries, type NewAuditEntry } from "../../../db/queries/admin-audit.ts";
import type { AuditAction } from "../../../db/schema.ts";
import type { Runtime } from "../runtime.ts";

export async function recordAudit(rt: Pick<Runtime, "handle">, entry: NewAuditEntry): Promise<void> {
  await insertAuditEntry(rt.handle.db, entry);
}

export interface AuditEntryView {
  id: string;
  action: AuditAction;
  /** The admin's email then; null when BACKUP_SECRET asked (`npm run backup` while the app runs). */
  actorEmail: string | null;
  subjectEmail: string | null;
  bytes: number | null;
  ipAddress: string | null;
  createdAt: string;
}

export async function auditLog(rt: Pick<Runtime, "handle">): Promise<AuditEntryView[]> {
  return (await listAuditEntries(rt.handle.db)).map((e) => ({
    id: e.id,
    action: e.action,
    actorEmail: e.actorEmail,
    subjectEmail: e.subjectEmail,
    bytes: e.bytes,
    ipAddress: e.ipAddress,
    createdAt: e.createdAt.toISOString(),
  }));
}
