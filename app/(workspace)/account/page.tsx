import type { Metadata } from "next";
import { AccountDataPanel } from "@/components/account/account-data-panel";
import { ChangePasswordForm } from "@/components/account/change-password-form";
import { PasswordResetsPanel } from "@/components/account/password-resets";
import { SignOutEverywhere } from "@/components/account/sign-out-everywhere";
import { StoragePanel } from "@/components/account/storage-panel";
import { TokensPanel } from "@/components/account/tokens-panel";
import { UsagePanel } from "@/components/account/usage-panel";
import { WebhookSecretPanel } from "@/components/account/webhook-secret";
import { SchedulesList } from "@/components/schedules/schedules-list";
import { storageUse } from "@/lib/jobs/quotas";
import { passwordResetsOf } from "@/lib/server/accounts/password-resets";
import { usageReport } from "@/lib/server/accounts/usage";
import { pageCaller } from "@/lib/server/auth/page";
import { serverRuntime } from "@/lib/server/runtime";
import { listMySchedules } from "@/lib/server/schedules/schedule";

export const dynamic = "force-dynamic";

export const metadata: Metadata = { title: "Account · Deep Research" };

export default async function AccountPage() {
  const me = await pageCaller();
  const rt = await serverRuntime();
  const [usage, resets, storage, schedules] = await Promise.all([
    usageReport(rt, me.userId),
    passwordResetsOf(rt, me.userId),
    storageUse(rt.handle.db, me.userId),
    listMySchedules(rt, me.userId),
  ]);
  return (
    <div className="space-y-8">
      <h1 className="text-3xl font-semibold tracking-tight">Your account</h1>
      <PasswordResetsPanel resets={resets} />
      <section aria-labelledby="account-details" className="space-y-3">
        <h2 id="account-details" className="text-lg font-medium">
          Details
        </h2>
        <dl className="grid max-w-md grid-cols-[8rem_1fr] gap-y-2 text-sm">
          <dt className="text-muted">Name</dt>
          <dd data-testid="account-name">{me.name}</dd>
          <dt className="text-muted">Email</dt>
          <dd data-testid="account-email">{me.email}</dd>
          <dt className="text-muted">Role</dt>
          <dd data-testid="account-role">
            {me.role === "admin" ? "admin — manages accounts and invitations" : "user"}
          </dd>
        </dl>
      </section>
      <section aria-labelledby="account-password" className="space-y-3">
        <h2 id="account-password" className="text-lg font-medium">
          Change password
        </h2>
        <ChangePasswordForm />
        <SignOutEverywhere />
      </section>
      <SchedulesList schedules={schedules} />
      <TokensPanel isAdmin={me.role === "admin"} />
      <WebhookSecretPanel />
      <section aria-labelledby="account-usage" className="space-y-3">
        <h2 id="account-usage" className="text-lg font-medium">
          Usage and cost
        </h2>
        <UsagePanel usage={usage} />
      </section>
      <section aria-labelledby="account-storage" className="space-y-3">
        <h2 id="account-storage" className="text-lg font-medium">
          Storage
        </h2>
        <StoragePanel storage={storage} />
      </section>
      <section aria-labelledby="account-data" className="space-y-3">
        <h2 id="account-data" className="text-lg font-medium">
          Your data
        </h2>
        <AccountDataPanel email={me.email} />
      </section>
    </div>
  );
}
