import type { Metadata } from "next";
import Link from "next/link";
import { AccountsTable } from "@/components/account/accounts-table";
import { type InvitationRow, InvitationsPanel } from "@/components/account/invitations-panel";
import { AuditLogTable } from "@/components/admin/audit-log";
import { UserLimitsTable } from "@/components/admin/user-limits-table";
import { defaultLimitsText, limitsByUser } from "@/lib/server/accounts/limits";
import { listAccounts } from "@/lib/server/accounts/list";
import { listAllInvitations } from "@/lib/server/accounts/list-invitations";
import { signupStatus } from "@/lib/server/accounts/view";
import { pageAdmin } from "@/lib/server/auth/page";
import { auditLog } from "@/lib/server/operations/audit";
import { serverRuntime } from "@/lib/server/runtime";

export const dynamic = "force-dynamic";

export const metadata: Metadata = { title: "Admin · Deep Research" };

const signupText = {
  invite: "Sign-up needs an invitation (SIGNUP=invite): create a link below and send it.",
  open: "Anyone who can reach this instance may sign up (SIGNUP=open).",
  closed: "Sign-up is closed (SIGNUP=closed): invitations cannot be used until it is opened.",
};

export default async function AdminPage() {
  const me = await pageAdmin();
  const rt = await serverRuntime();
  const [accounts, invitations, signup, limits, audit] = await Promise.all([
    listAccounts(rt),
    listAllInvitations(rt),
    signupStatus(rt),
    limitsByUser(rt),
    auditLog(rt),
  ]);
  const limitRows = accounts.map((a) => ({
    id: a.id,
    name: a.name,
    email: a.email,
    maxConcurrentRuns: limits[a.id]?.maxConcurrentRuns ?? null,
    monthlyCostLimitUsd: limits[a.id]?.monthlyCostLimitUsd ?? null,
  }));
  const rows: InvitationRow[] = JSON.parse(JSON.stringify(invitations));
  return (
    <div className="space-y-10">
      <section className="space-y-2">
        <h1 className="text-3xl font-semibold tracking-tight">Admin</h1>
        <p className="max-w-2xl text-muted">
          Accounts and invitations. Admins manage accounts; they do not see other people&apos;s research. A
          password you set for someone is temporary: their account page lists it, with every sign-in made with
          it, until they set their own.
        </p>
        <p>
          <Link href="/admin/settings" className="underline">
            Settings: models, provider keys, search and run limits
          </Link>
        </p>
        <p>
          <Link href="/admin/system" className="underline">
            System: runs in progress, failures, model errors and cost
          </Link>
        </p>
      </section>
      <section aria-labelledby="admin-accounts" className="space-y-3">
        <h2 id="admin-accounts" className="text-lg font-medium">
          Accounts <span className="text-sm font-normal text-muted">({accounts.length})</span>
        </h2>
        <AccountsTable accounts={accounts} selfId={me.userId} />
      </section>
      <section aria-labelledby="admin-limits" className="space-y-3">
        <h2 id="admin-limits" className="text-lg font-medium">
          Limits
        </h2>
        <p className="max-w-2xl text-sm text-muted">
          How many runs each person may have in progress at once, and what their runs may cost per calendar
          month (UTC). Leave a field blank for this server&apos;s defaults ({defaultLimitsText()}).
        </p>
        <UserLimitsTable rows={limitRows} />
      </section>
      <section aria-labelledby="admin-invitations" className="space-y-3">
        <h2 id="admin-invitations" className="text-lg font-medium">
          Invitations
        </h2>
        <p className="text-sm text-muted">{signupText[signup.mode]}</p>
        <InvitationsPanel invitations={rows} />
      </section>
      <section aria-labelledby="admin-audit" className="space-y-3">
        <h2 id="admin-audit" className="text-lg font-medium">
          Backups and audit log
        </h2>
        <p className="max-w-2xl text-sm text-muted">
          A backup holds every account&apos;s data, so each one is listed here for every admin to see, with
          every password an admin set.{" "}
          {rt.handle.kind === "pglite" ? (
            <a href="/api/admin/backup" download className="underline">
              Download a backup of the database
            </a>
          ) : (
            "On PostgreSQL, back up with npm run backup (pg_dump) on the server."
          )}
        </p>
        <AuditLogTable entries={audit} />
      </section>
    </div>
  );
}
