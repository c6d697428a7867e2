import type { Metadata } from "next";
import { redirect } from "next/navigation";
import { AuthCard } from "@/components/account/form-parts";
import { NewAccountForm } from "@/components/account/new-account-form";
import { accountsExist } from "@/lib/server/accounts/view";
import { serverRuntime } from "@/lib/server/runtime";

export const dynamic = "force-dynamic";

export const metadata: Metadata = { title: "Set up · Deep Research" };

/** First start: the instance has no account yet, and the first one to be created is its admin. */
export default async function SetupPage() {
  if (await accountsExist(await serverRuntime())) redirect("/sign-in");
  return (
    <AuthCard title="Set up Deep Research">
      <div className="space-y-2 text-sm text-muted">
        <p>This instance has no accounts yet. Create the first one: it becomes the admin.</p>
        <p>
          The admin invites other people, can disable accounts and reset their passwords. Research stays
          private to each account; anything made before accounts existed becomes yours.
        </p>
      </div>
      <NewAccountForm label="Create the admin account" submitLabel="Create admin account" />
    </AuthCard>
  );
}
