import type { Metadata } from "next";
import { getTranslations } from "next-intl/server";
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

export async function generateMetadata(): Promise<Metadata> {
  return { title: (await getTranslations("account"))("metaTitle") };
}

export default async function AccountPage() {
  const me = await pageCaller();
  const rt = await serverRuntime();
  const [usage, resets, storage, schedules, t] = await Promise.all([
    usageReport(rt, me.userId),
    passwordResetsOf(rt, me.userId),
    storageUse(rt.handle.db, me.userId),
    listMySchedules(rt, me.userId),
    getTranslations("account"),
  ]);
  return (
    <div className="space-y-8">
      <h1 className="text-3xl font-semibold tracking-tight">{t("title")}</h1>
      <PasswordResetsPanel resets={resets} />
      <section aria-labelledby="account-details" className="space-y-3">
        <h2 id="account-details" className="text-lg font-medium">
          {t("details")}
        </h2>
        <dl className="grid max-w-md grid-cols-[8rem_1fr] gap-y-2 text-sm">
          <dt className="text-muted">{t("name")}</dt>
          <dd data-testid="account-name">{me.name}</dd>
          <dt className="text-muted">{t("email")}</dt>
          <dd data-testid="account-email">{me.email}</dd>
          <dt className="text-muted">{t("role")}</dt>
          <dd data-testid="account-role">{me.role === "admin" ? t("roleAdmin") : t("roleUser")}</dd>
        </dl>
      </section>
      <section aria-labelledby="account-password" className="space-y-3">
        <h2 id="account-password" className="text-lg font-medium">
          {t("passwordTitle")}
        </h2>
        <ChangePasswordForm />
        <SignOutEverywhere />
      </section>
      <SchedulesList schedules={schedules} />
      <TokensPanel isAdmin={me.role === "admin"} />
      <WebhookSecretPanel />
      <section aria-labelledby="account-usage" className="space-y-3">
        <h2 id="account-usage" className="text-lg font-medium">
          {t("usageTitle")}
        </h2>
        <UsagePanel usage={usage} />
      </section>
      <section aria-labelledby="account-storage" className="space-y-3">
        <h2 id="account-storage" className="text-lg font-medium">
          {t("storageTitle")}
        </h2>
        <StoragePanel storage={storage} />
      </section>
      <section aria-labelledby="account-data" className="space-y-3">
        <h2 id="account-data" className="text-lg font-medium">
          {t("dataTitle")}
        </h2>
        <AccountDataPanel email={me.email} />
      </section>
    </div>
  );
}
