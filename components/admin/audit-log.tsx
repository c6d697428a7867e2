/**
 * The admins' audit log on the admin page: every backup (who, when, how large) and every password an
 * admin set (who, for whom, when). Every admin sees the same list; there is nothing to delete it with.
 */
import { useTranslations } from "next-intl";
import type { AuditEntryView } from "@/lib/server/operations/audit";
import { useByteSize } from "../account/byte-size";
import { DataTable } from "../data-table";
import { useTimeFormat } from "../home/time-format";

const cell = "px-3 py-2";

export function AuditLogTable({ entries }: { entries: AuditEntryView[] }) {
  const t = useTranslations("admin.audit");
  const size = useByteSize();
  const { absoluteTime } = useTimeFormat();
  const what = (e: AuditEntryView) =>
    e.action === "backup"
      ? t("backup", { size: e.bytes === null ? t("sizeUnknown") : size(e.bytes) })
      : t("setPassword", { email: e.subjectEmail ?? t("deletedAccount") });
  if (entries.length === 0) return <p className="text-sm text-muted">{t("none")}</p>;
  return (
    <DataTable
      label={t("table")}
      columns={[{ name: t("when") }, { name: t("who") }, { name: t("what") }, { name: t("address") }]}
    >
      {entries.map((e) => (
        <tr key={e.id} data-testid="audit-entry">
          <td className={`${cell} whitespace-nowrap`}>
            <time dateTime={e.createdAt}>{absoluteTime(new Date(e.createdAt))}</time>
          </td>
          <td className={cell}>{e.actorEmail ?? t("backupSecret")}</td>
          <td className={cell}>{what(e)}</td>
          <td className={`${cell} font-mono`}>{e.ipAddress ?? "—"}</td>
          <td />
        </tr>
      ))}
    </DataTable>
  );
}
