"use client";

import { useRouter } from "next/navigation";
import { useTranslations } from "next-intl";
import { useId, useState } from "react";
import type { InvitationView } from "@/lib/server/accounts/invitation-view";
import { api } from "../api-client";
import { DataTable } from "../data-table";
import { useTimeFormat } from "../home/time-format";
import type { Jsonified } from "../jsonified";
import { useFormState } from "../use-form-state";
import { CopyField } from "./copy-field";
import { Field, FormError, SubmitButton, smallButton } from "./form-parts";

export type InvitationRow = Jsonified<InvitationView>;

/** Email (optional) and how many days the link lives; the link comes back once, in the answer. */
function CreateInvitationForm({ onCreated }: { onCreated: (url: string) => void }) {
  const id = useId();
  const [email, setEmail] = useState("");
  const [days, setDays] = useState(7);
  const { busy, error, run } = useFormState();
  const t = useTranslations("account.invitations");

  async function submit(e: React.FormEvent) {
    e.preventDefault();
    const body = { ...(email.trim() ? { email: email.trim() } : {}), expiresInDays: days };
    await run(async () => {
      const { invitation } = await api<{ invitation: { url: string } }>("/api/invitations", {
        method: "POST",
        body,
      });
      setEmail("");
      onCreated(invitation.url);
    });
  }

  return (
    <form
      onSubmit={submit}
      aria-label={t("form")}
      aria-busy={busy}
      className="grid max-w-xl gap-3 rounded-lg border border-zinc-200 bg-white p-4 sm:grid-cols-[1fr_10rem] dark:border-zinc-800 dark:bg-zinc-900"
    >
      <Field
        id={`${id}-email`}
        label={t("email")}
        type="email"
        hint={t("emailHint")}
        value={email}
        onChange={(e) => setEmail(e.target.value)}
      />
      <Field
        id={`${id}-days`}
        label={t("days")}
        type="number"
        min={1}
        max={90}
        required
        value={days}
        onChange={(e) => setDays(Number(e.target.value))}
      />
      <div className="space-y-2 sm:col-span-2">
        <FormError message={error} />
        <SubmitButton busy={busy} busyLabel={t("creating")}>
          {t("create")}
        </SubmitButton>
      </div>
    </form>
  );
}

function InvitationTable({
  invitations,
  busy,
  onRevoke,
}: {
  invitations: InvitationRow[];
  busy: boolean;
  onRevoke: (i: InvitationRow) => void;
}) {
  const t = useTranslations("account.invitations");
  const { absoluteTime } = useTimeFormat();
  if (invitations.length === 0) {
    return <p className="text-sm text-muted">{t("none")}</p>;
  }
  return (
    <DataTable
      label={t("table")}
      columns={[
        { name: t("emailColumn") },
        { name: t("created") },
        { name: t("expires") },
        { name: t("state") },
      ]}
    >
      {invitations.map((i) => (
        <tr key={i.id}>
          <td className="px-3 py-2">{i.email ?? <span className="text-muted">{t("anyone")}</span>}</td>
          <td className="whitespace-nowrap px-3 py-2">
            <time dateTime={i.createdAt}>{absoluteTime(new Date(i.createdAt))}</time>
          </td>
          <td className="whitespace-nowrap px-3 py-2">
            <time dateTime={i.expiresAt}>{absoluteTime(new Date(i.expiresAt))}</time>
          </td>
          <td className="px-3 py-2" data-testid="invitation-state">
            {t("stateValue", { state: i.state })}
          </td>
          <td className="px-3 py-2 text-right">
            {i.state === "open" && (
              <button type="button" disabled={busy} onClick={() => onRevoke(i)} className={smallButton}>
                {t("revoke")}
              </button>
            )}
          </td>
        </tr>
      ))}
    </DataTable>
  );
}

/** The admin's invitations: create one (its link shown only this once), list them, revoke open ones. */
export function InvitationsPanel({ invitations }: { invitations: InvitationRow[] }) {
  const router = useRouter();
  const [link, setLink] = useState<string | null>(null);
  const { busy, error, run } = useFormState();
  const t = useTranslations("account.invitations");

  async function revoke(i: InvitationRow) {
    if (await run(() => api(`/api/invitations/${i.id}`, { method: "DELETE" }))) router.refresh();
  }

  return (
    <div className="space-y-4">
      <CreateInvitationForm
        onCreated={(url) => {
          setLink(url);
          router.refresh();
        }}
      />
      {link && (
        <div className="max-w-xl space-y-2 rounded-lg border border-amber-300 bg-amber-50 p-4 dark:border-amber-800 dark:bg-amber-950">
          <p className="text-sm font-medium">{t("linkOnce")}</p>
          <CopyField label={t("link")} value={link} />
        </div>
      )}
      <FormError message={error} />
      <InvitationTable invitations={invitations} busy={busy} onRevoke={revoke} />
    </div>
  );
}
