import type { Metadata } from "next";
import { redirect } from "next/navigation";
import { AuthCard } from "@/components/account/form-parts";
import { NewAccountForm } from "@/components/account/new-account-form";
import { signupStatus } from "@/lib/server/accounts/view";
import { serverRuntime } from "@/lib/server/runtime";

export const dynamic = "force-dynamic";

export const metadata: Metadata = { title: "Sign up · Deep Research" };

const signInLink = (
  <a href="/sign-in" className="text-blue-700 underline dark:text-blue-400">
    Sign in
  </a>
);

/** Who may sign up follows SIGNUP: open, an invitation link (?invite=…) in invite mode, nobody when closed. */
export default async function SignUpPage({ searchParams }: PageProps<"/sign-up">) {
  const raw = (await searchParams).invite;
  const invite = (Array.isArray(raw) ? raw[0] : raw)?.trim() || undefined;
  const signup = await signupStatus(await serverRuntime());
  if (signup.firstAccount) redirect("/setup");

  if (signup.mode === "closed") {
    return (
      <AuthCard title="Sign-up is closed">
        <p className="text-sm">
          New accounts cannot be created on this instance. Already have one? {signInLink}.
        </p>
      </AuthCard>
    );
  }
  if (signup.mode === "invite" && !invite) {
    return (
      <AuthCard title="Sign-up needs an invitation">
        <p className="text-sm">
          To create an account here you need an invitation link from an admin. Open the link you were sent, or
          ask an admin for one. Already have an account? {signInLink}.
        </p>
      </AuthCard>
    );
  }
  return (
    <AuthCard title="Create your account">
      {invite && (
        <p className="text-sm text-muted">
          You were invited. An invitation works once; if it was made for one email address, use that one.
        </p>
      )}
      <NewAccountForm label="Create your account" submitLabel="Create account" invite={invite} />
      <p className="text-sm text-muted">Already have an account? {signInLink}.</p>
    </AuthCard>
  );
}
