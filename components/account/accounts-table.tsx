"use client";

import { useRouter } from "next/navigation";
import { useId, useState } from "react";
import type { AccountView } from "@/lib/server/accounts/list";
import { authPost } from "../api-client";
import { DataTable } from "../data-table";
import { formatDate } from "../library/format";
import { useFormState } from "../use-form-state";
import { FormError, FormNotice, inputClass, MAX_PASSWORD, MIN_PASSWORD, smallButton } from "./form-parts";

/** The admin's small form for setting someone's new password. */
function ResetPasswordForm({
  account,
  busy,
  onSubmit,
  onCancel,
}: {
  account: AccountView;
  busy: boolean;
  onSubmit: (password: string) => void;
  onCancel: () => void;
}) {
  const id = useId();
  const [password, setPassword] = useState("");
  return (
    <form
      aria-label={`Reset password of ${account.name}`}
      className="flex flex-wrap items-end gap-2"
      onSubmit={(e) => {
        e.preventDefault();
        onSubmit(password);
      }}
    >
      <div className="space-y-1">
        <label htmlFor={id} className="block text-xs font-medium">
          New password for {account.name}
        </label>
        <input
          id={id}
          type="password"
          autoComplete="new-password"
          required
          minLength={MIN_PASSWORD}
          maxLength={MAX_PASSWORD}
          value={password}
          onChange={(e) => setPassword(e.target.value)}
          className={inputClass}
        />
      </div>
      <button type="submit" disabled={busy || password.length < MIN_PASSWORD} className={smallButton}>
        Set password
      </button>
      <button type="button" disabled={busy} onClick={onCancel} className={smallButton}>
        Cancel
      </button>
    </form>
  );
}

interface AccountAction {
  label: string;
  path: string;
  body: Record<string, unknown>;
  /** What the notice says once it worked. */
  done: string;
}

/** The role and status actions offered for one account (nobody disables their own account). */
function actionsFor(a: AccountView, self: boolean): AccountAction[] {
  const actions: AccountAction[] = [
    a.role === "admin"
      ? {
          label: "Remove admin",
          path: "/admin/set-role",
          body: { userId: a.id, role: "user" },
          done: `${a.name} is no longer an admin.`,
        }
      : {
          label: "Make admin",
          path: "/admin/set-role",
          body: { userId: a.id, role: "admin" },
          done: `${a.name} is now an admin.`,
        },
  ];
  actions.push({
    label: "Sign out everywhere",
    path: "/admin/revoke-user-sessions",
    body: { userId: a.id },
    done: `${a.name} was signed out everywhere; their API tokens are revoked.`,
  });
  if (a.disabled) {
    actions.push({
      label: "Enable",
      path: "/admin/unban-user",
      body: { userId: a.id },
      done: `${a.name} can sign in again.`,
    });
  } else if (!self) {
    actions.push({
      label: "Disable",
      path: "/admin/ban-user",
      body: { userId: a.id },
      done: `${a.name} is disabled and was signed out everywhere.`,
    });
  }
  return actions;
}

function AccountRow({
  account: a,
  self,
  busy,
  resetting,
  onAct,
  onReset,
}: {
  account: AccountView;
  self: boolean;
  busy: boolean;
  resetting: boolean;
  onAct: (action: AccountAction) => void;
  onReset: (open: boolean) => void;
}) {
  return (
    <tr className="align-top">
      <td className="px-3 py-2 font-medium">
        {a.name} {self && <span className="font-normal text-muted">(you)</span>}
      </td>
      <td className="px-3 py-2">{a.email}</td>
      <td className="px-3 py-2">{a.role}</td>
      <td className="px-3 py-2">{a.disabled ? "disabled" : "active"}</td>
      <td className="whitespace-nowrap px-3 py-2 text-muted">
        <time dateTime={a.createdAt}>{formatDate(a.createdAt)}</time>
      </td>
      <td className="px-3 py-2">
        {resetting ? (
          <ResetPasswordForm
            account={a}
            busy={busy}
            onCancel={() => onReset(false)}
            onSubmit={(newPassword) =>
              onAct({
                label: "Set password",
                path: "/admin/set-user-password",
                body: { userId: a.id, newPassword },
                done: `New password set for ${a.name}; their API tokens are revoked. Their account page lists this password and every sign-in with it until they set their own.`,
              })
            }
          />
        ) : (
          <div className="flex flex-wrap justify-end gap-2">
            {actionsFor(a, self).map((action) => (
              <button
                key={action.label}
                type="button"
                disabled={busy}
                className={smallButton}
                onClick={() => onAct(action)}
              >
                {action.label}
              </button>
            ))}
            <button type="button" disabled={busy} className={smallButton} onClick={() => onReset(true)}>
              Reset password
            </button>
          </div>
        )}
      </td>
    </tr>
  );
}

/**
 * Every account with the admin's actions, each one of better-auth's admin routes: disable/enable
 * (ban/unban), make or remove admin (set-role), sign out everywhere (revoke-user-sessions), reset
 * password (set-user-password). The server keeps the last admin, revokes tokens with sessions and
 * passwords, and records a reset for the owner to see; its refusal is shown as it comes.
 */
export function AccountsTable({ accounts, selfId }: { accounts: AccountView[]; selfId: string }) {
  const router = useRouter();
  const { busy, error, notice, clear, run } = useFormState();
  const [resetting, setResetting] = useState<string | null>(null);

  async function act({ path, body, done }: AccountAction) {
    if (await run(() => authPost(path, body), { notice: done })) {
      setResetting(null);
      router.refresh();
    }
  }

  return (
    <div className="space-y-3">
      <FormError message={error} />
      <FormNotice message={notice} />
      <DataTable
        label="Accounts"
        columns={[
          { name: "Name" },
          { name: "Email" },
          { name: "Role" },
          { name: "Status" },
          { name: "Created" },
        ]}
      >
        {accounts.map((a) => (
          <AccountRow
            key={a.id}
            account={a}
            self={a.id === selfId}
            busy={busy}
            resetting={resetting === a.id}
            onAct={act}
            onReset={(open) => {
              clear();
              setResetting(open ? a.id : null);
            }}
          />
        ))}
      </DataTable>
    </div>
  );
}
