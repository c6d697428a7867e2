/**
 * The admins' audit log on the admin page: every backup (who, when, how large) and every password an
 * admin set (who, for whom, when). Every admin sees the same list; there is nothing to delete it with.
 */
import type { AuditEntryView } from "@/lib/server/operations/audit";
import { DataTable } from "../data-table";
import { formatDate, numberFormat } from "../library/format";

const cell = "px-3 py-2";

const size = (bytes: number) =>
  bytes >= 1024 * 1024
    ? `${numberFormat.format(Math.round(bytes / 1024 / 102.4) / 10)} MB`
    : `${numberFormat.format(Math.ceil(bytes / 1024))} KB`;

function what(e: AuditEntryView): string {
  if (e.action === "backup") return `Backup (${e.bytes === null ? "size unknown" : size(e.bytes)})`;
  return `Set the password of ${e.subjectEmail ?? "an account since deleted"}`;
}

export function AuditLogTable({ entries }: { entries: AuditEntryView[] }) {
  if (entries.length === 0) return <p className="text-sm text-muted">No backups or password resets yet.</p>;
  return (
    <DataTable
      label="Audit log"
      columns={[{ name: "When" }, { name: "Who" }, { name: "What" }, { name: "Address" }]}
    >
      {entries.map((e) => (
        <tr key={e.id} data-testid="audit-entry">
          <td className={`${cell} whitespace-nowrap`}>
            <time dateTime={e.createdAt}>{formatDate(e.createdAt)}</time>
          </td>
          <td className={cell}>{e.actorEmail ?? "BACKUP_SECRET (npm run backup)"}</td>
          <td className={cell}>{what(e)}</td>
          <td className={`${cell} font-mono`}>{e.ipAddress ?? "—"}</td>
          <td />
        </tr>
      ))}
    </DataTable>
  );
}
