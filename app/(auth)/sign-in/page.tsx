import type { Metadata } from "next";
import { redirect } from "next/navigation";
import { AuthCard } from "@/components/account/form-parts";
import { SignInForm } from "@/components/account/sign-in-form";
import { signupStatus } from "@/lib/server/accounts/view";
import { safeNextPath } from "@/lib/server/auth/next-path";
import { optionalPageCaller } from "@/lib/server/auth/page";
import { serverRuntime } from "@/lib/server/runtime";

export const dynamic = "force-dynamic";

export const metadata: Metadata = { title: "Sign in · Deep Research" };

export default async function SignInPage({ searchParams }: PageProps<"/sign-in">) {
  const next = safeNextPath((await searchParams).next);
  const signup = await signupStatus(await serverRuntime());
  if (signup.firstAccount) redirect("/setup");
  if (await optionalPageCaller()) redirect(next);
  return (
    <AuthCard title="Sign in">
      <SignInForm next={next} />
      <p className="text-sm text-muted">
        {signup.mode === "open" ? (
          <>
            No account yet?{" "}
            <a href="/sign-up" className="text-blue-700 underline dark:text-blue-400">
              Create one
            </a>
            .
          </>
        ) : signup.mode === "invite" ? (
          "No account yet? Ask an admin for an invitation link."
        ) : (
          "Sign-up is closed on this instance: an admin manages who has an account."
        )}
      </p>
    </AuthCard>
  );
}
