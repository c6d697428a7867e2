import type { Metadata } from "next";
import { redirect } from "next/navigation";
import { getTranslations } from "next-intl/server";
import { AuthCard } from "@/components/account/form-parts";
import { NewAccountForm } from "@/components/account/new-account-form";
import { accountsExist } from "@/lib/server/accounts/view";
import { serverRuntime } from "@/lib/server/runtime";

export const dynamic = "force-dynamic";

export async function generateMetadata(): Promise<Metadata> {
  return { title: (await getTranslations("setup"))("metaTitle") };
}

/** First start: the instance has no account yet, and the first one to be created is its admin. */
export default async function SetupPage() {
  if (await accountsExist(await serverRuntime())) redirect("/sign-in");
  const t = await getTranslations("setup");
  return (
    <AuthCard title={t("title")}>
      <div className="space-y-2 text-sm text-muted">
        <p>{t("first")}</p>
        <p>{t("adminRole")}</p>
      </div>
      <NewAccountForm label={t("form")} submitLabel={t("submit")} />
    </AuthCard>
  );
}
