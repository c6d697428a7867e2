import type { Metadata } from "next";
import { redirect } from "next/navigation";
import { getTranslations } from "next-intl/server";
import type { ReactNode } from "react";
import { AuthCard } from "@/components/account/form-parts";
import { NewAccountForm } from "@/components/account/new-account-form";
import { signupStatus } from "@/lib/server/accounts/view";
import { serverRuntime } from "@/lib/server/runtime";

export const dynamic = "force-dynamic";

export async function generateMetadata(): Promise<Metadata> {
  return { title: (await getTranslations("auth.signUp"))("metaTitle") };
}

const signInLink = (chunks: ReactNode) => (
  <a href="/sign-in" className="text-blue-700 underline dark:text-blue-400">
    {chunks}
  </a>
);

/** Who may sign up follows SIGNUP: open, an invitation link (?invite=…) in invite mode, nobody when closed. */
export default async function SignUpPage({ searchParams }: PageProps<"/sign-up">) {
  const raw = (await searchParams).invite;
  const invite = (Array.isArray(raw) ? raw[0] : raw)?.trim() || undefined;
  const signup = await signupStatus(await serverRuntime());
  if (signup.firstAccount) redirect("/setup");
  const t = await getTranslations("auth.signUp");

  if (signup.mode === "closed") {
    return (
      <AuthCard title={t("closedTitle")}>
        <p className="text-sm">{t.rich("closedText", { link: signInLink })}</p>
      </AuthCard>
    );
  }
  if (signup.mode === "invite" && !invite) {
    return (
      <AuthCard title={t("inviteTitle")}>
        <p className="text-sm">{t.rich("inviteText", { link: signInLink })}</p>
      </AuthCard>
    );
  }
  return (
    <AuthCard title={t("title")}>
      {invite && <p className="text-sm text-muted">{t("invited")}</p>}
      <NewAccountForm label={t("title")} submitLabel={t("submit")} invite={invite} />
      <p className="text-sm text-muted">{t.rich("haveAccount", { link: signInLink })}</p>
    </AuthCard>
  );
}
