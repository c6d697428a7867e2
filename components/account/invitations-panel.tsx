"use client";

import { useRouter } from "next/navigation";
import { useId, useState } from "react";
import type { InvitationView } from "@/lib/server/accounts/invitation-view";
import { api } from "../api-client";
import { DataTable } from "../data-table";
import type { Jsonified } from "../jsonified";
import { formatDate } from "../library/format";
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
      aria-label="Create an invitation"
      aria-busy={busy}
      className="grid max-w-xl gap-3 rounded-lg border border-zinc-200 bg-white p-4 sm:grid-cols-[1fr_10rem] dark:border-zinc-800 dark:bg-zinc-900"
    >
      <Field
        id={`${id}-email`}
        label="Email (optional)"
        type="email"
        hint="Only this address may use the link. Leave empty for anyone with the link."
        value={email}
        onChange={(e) => setEmail(e.target.value)}
      />
      <Field
        id={`${id}-days`}
        label="Expires after (days)"
        type="number"
        min={1}
        max={90}
        required
        value={days}
        onChange={(e) => setDays(Number(e.target.value))}
      />
      <div className="space-y-2 sm:col-span-2">
        <FormError message={error} />
        <SubmitButton busy={busy} busyLabel="Creating…">
          Create invitation
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
  if (invitations.length === 0) {
    return <p className="text-sm text-muted">No invitations yet.</p>;
  }
  return (
    <DataTable
      label="Invitations"
      columns={[{ name: "Email" }, { name: "Created" }, { name: "Expires" }, { name: "State" }]}
    >
      {invitations.map((i) => (
        <tr key={i.id}>
          <td className="px-3 py-2">{i.email ?? <span className="text-muted">anyone</span>}</td>
          <td className="whitespace-nowrap px-3 py-2">
            <time dateTime={i.createdAt}>{formatDate(i.createdAt)}</time>
          </td>
          <td className="whitespace-nowrap px-3 py-2">
            <time dateTime={i.expiresAt}>{formatDate(i.expiresAt)}</time>
          </td>
          <td className="px-3 py-2" data-testid="invitation-state">
            {i.state}
          </td>
          <td className="px-3 py-2 text-right">
            {i.state === "open" && (
              <button type="button" disabled={busy} onClick={() => onRevoke(i)} className={smallButton}>
                Revoke
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
          <p className="text-sm font-medium">
            The invitation link is shown only now: copy it and send it to the person.
          </p>
          <CopyField label="Invitation link" value={link} />
        </div>
      )}
      <FormError message={error} />
      <InvitationTable invitations={invitations} busy={busy} onRevoke={revoke} />
    </div>
  );
}
