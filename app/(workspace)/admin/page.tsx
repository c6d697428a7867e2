import type { Metadata } from "next";
import Link from "next/link";
import { getFormatter, getTranslations } from "next-intl/server";
import { AccountsTable } from "@/components/account/accounts-table";
import { type InvitationRow, InvitationsPanel } from "@/components/account/invitations-panel";
import { AuditLogTable } from "@/components/admin/audit-log";
import { UserLimitsTable } from "@/components/admin/user-limits-table";
import { defaultLimits, limitsByUser } from "@/lib/server/accounts/limits";
import { listAccounts } from "@/lib/server/accounts/list";
import { listAllInvitations } from "@/lib/server/accounts/list-invitations";
import { signupStatus } from "@/lib/server/accounts/view";
import { pageAdmin } from "@/lib/server/auth/page";
import { auditLog } from "@/lib/server/operations/audit";
import { serverRuntime } from "@/lib/server/runtime";

export const dynamic = "force-dynamic";

export async function generateMetadata(): Promise<Metadata> {
  return { title: (await getTranslations("admin"))("metaTitle") };
}

export default async function AdminPage() {
  const me = await pageAdmin();
  const rt = await serverRuntime();
  const [accounts, invitations, signup, limits, audit, t, format] = await Promise.all([
    listAccounts(rt),
    listAllInvitations(rt),
    signupStatus(rt),
    limitsByUser(rt),
    auditLog(rt),
    getTranslations("admin"),
    getFormatter(),
  ]);
  const limitRows = accounts.map((a) => ({
    id: a.id,
    name: a.name,
    email: a.email,
    maxConcurrentRuns: limits[a.id]?.maxConcurrentRuns ?? null,
    monthlyCostLimitUsd: limits[a.id]?.monthlyCostLimitUsd ?? null,
  }));
  const defaults = defaultLimits();
  const rows: InvitationRow[] = JSON.parse(JSON.stringify(invitations));
  return (
    <div className="space-y-10">
      <section className="space-y-2">
        <h1 className="text-3xl font-semibold tracking-tight">{t("title")}</h1>
        <p className="max-w-2xl text-muted">{t("intro")}</p>
        <p>
          <Link href="/admin/settings" className="underline">
            {t("settingsLink")}
          </Link>
        </p>
        <p>
          <Link href="/admin/system" className="underline">
            {t("systemLink")}
          </Link>
        </p>
      </section>
      <section aria-labelledby="admin-accounts" className="space-y-3">
        <h2 id="admin-accounts" className="text-lg font-medium">
          {t("accounts")}{" "}
          <span className="text-sm font-normal text-muted">({format.number(accounts.length)})</span>
        </h2>
        <AccountsTable accounts={accounts} selfId={me.userId} />
      </section>
      <section aria-labelledby="admin-limits" className="space-y-3">
        <h2 id="admin-limits" className="text-lg font-medium">
          {t("limitsTitle")}
        </h2>
        <p className="max-w-2xl text-sm text-muted">
          {t("limitsIntro", {
            running: defaults.running,
            waiting: defaults.waiting,
            maxCost: format.number(defaults.maxCostUsd, {
              style: "currency",
              currency: "USD",
              minimumFractionDigits: 0,
            }),
          })}
        </p>
        <UserLimitsTable rows={limitRows} />
      </section>
      <section aria-labelledby="admin-invitations" className="space-y-3">
        <h2 id="admin-invitations" className="text-lg font-medium">
          {t("invitations")}
        </h2>
        <p className="text-sm text-muted">{t(`signup.${signup.mode}`)}</p>
        <InvitationsPanel invitations={rows} />
      </section>
      <section aria-labelledby="admin-audit" className="space-y-3">
        <h2 id="admin-audit" className="text-lg font-medium">
          {t("auditTitle")}
        </h2>
        <p className="max-w-2xl text-sm text-muted">
          {t("auditIntro")}{" "}
          {rt.handle.kind === "pglite" ? (
            <a href="/api/admin/backup" download className="underline">
              {t("backupDownload")}
            </a>
          ) : (
            t("backupPostgres")
          )}
        </p>
        <AuditLogTable entries={audit} />
      </section>
    </div>
  );
}
