import type { Metadata } from "next";
import { redirect } from "next/navigation";
import { getTranslations } from "next-intl/server";
import { AuthCard } from "@/components/account/form-parts";
import { SignInForm } from "@/components/account/sign-in-form";
import { signupStatus } from "@/lib/server/accounts/view";
import { safeNextPath } from "@/lib/server/auth/next-path";
import { optionalPageCaller } from "@/lib/server/auth/page";
import { serverRuntime } from "@/lib/server/runtime";

export const dynamic = "force-dynamic";

export async function generateMetadata(): Promise<Metadata> {
  return { title: (await getTranslations("auth.signIn"))("metaTitle") };
}

export default async function SignInPage({ searchParams }: PageProps<"/sign-in">) {
  const next = safeNextPath((await searchParams).next);
  const signup = await signupStatus(await serverRuntime());
  if (signup.firstAccount) redirect("/setup");
  if (await optionalPageCaller()) redirect(next);
  const t = await getTranslations("auth.signIn");
  return (
    <AuthCard title={t("title")}>
      <SignInForm next={next} />
      <p className="text-sm text-muted">
        {signup.mode === "open"
          ? t.rich("noAccountOpen", {
              link: (chunks) => (
                <a href="/sign-up" className="text-blue-700 underline dark:text-blue-400">
                  {chunks}
                </a>
              ),
            })
          : signup.mode === "invite"
            ? t("noAccountInvite")
            : t("closed")}
      </p>
    </AuthCard>
  );
}
