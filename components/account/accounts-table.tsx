"use client";

import { useRouter } from "next/navigation";
import { useTranslations } from "next-intl";
import { useId, useState } from "react";
import type { AccountView } from "@/lib/server/accounts/list";
import { authPost } from "../api-client";
import { DataTable } from "../data-table";
import { useTimeFormat } from "../home/time-format";
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
  const t = useTranslations("account.accounts");
  return (
    <form
      aria-label={t("resetForm", { name: account.name })}
      className="flex flex-wrap items-end gap-2"
      onSubmit={(e) => {
        e.preventDefault();
        onSubmit(password);
      }}
    >
      <div className="space-y-1">
        <label htmlFor={id} className="block text-xs font-medium">
          {t("newPassword", { name: account.name })}
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
        {t("setPassword")}
      </button>
      <button type="button" disabled={busy} onClick={onCancel} className={smallButton}>
        {t("cancel")}
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

type AccountsT = ReturnType<typeof useTranslations<"account.accounts">>;

/** The role and status actions offered for one account (nobody disables their own account). */
function actionsFor(a: AccountView, self: boolean, t: AccountsT): AccountAction[] {
  const name = a.name;
  const actions: AccountAction[] = [
    a.role === "admin"
      ? {
          label: t("removeAdmin"),
          path: "/admin/set-role",
          body: { userId: a.id, role: "user" },
          done: t("removedAdmin", { name }),
        }
      : {
          label: t("makeAdmin"),
          path: "/admin/set-role",
          body: { userId: a.id, role: "admin" },
          done: t("madeAdmin", { name }),
        },
  ];
  actions.push({
    label: t("signOutEverywhere"),
    path: "/admin/revoke-user-sessions",
    body: { userId: a.id },
    done: t("signedOutEverywhere", { name }),
  });
  if (a.disabled) {
    actions.push({
      label: t("enable"),
      path: "/admin/unban-user",
      body: { userId: a.id },
      done: t("enabled", { name }),
    });
  } else if (!self) {
    actions.push({
      label: t("disable"),
      path: "/admin/ban-user",
      body: { userId: a.id },
      done: t("disabled", { name }),
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
  const t = useTranslations("account.accounts");
  const { absoluteTime } = useTimeFormat();
  return (
    <tr className="align-top">
      <td className="px-3 py-2 font-medium">
        {a.name} {self && <span className="font-normal text-muted">{t("you")}</span>}
      </td>
      <td className="px-3 py-2">{a.email}</td>
      <td className="px-3 py-2">{t("roleValue", { role: a.role })}</td>
      <td className="px-3 py-2">{a.disabled ? t("statusDisabled") : t("statusActive")}</td>
      <td className="whitespace-nowrap px-3 py-2 text-muted">
        <time dateTime={a.createdAt}>{absoluteTime(new Date(a.createdAt))}</time>
      </td>
      <td className="px-3 py-2">
        {resetting ? (
          <ResetPasswordForm
            account={a}
            busy={busy}
            onCancel={() => onReset(false)}
            onSubmit={(newPassword) =>
              onAct({
                label: t("setPassword"),
                path: "/admin/set-user-password",
                body: { userId: a.id, newPassword },
                done: t("passwordSet", { name: a.name }),
              })
            }
          />
        ) : (
          <div className="flex flex-wrap justify-end gap-2">
            {actionsFor(a, self, t).map((action) => (
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
              {t("resetPassword")}
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
  const t = useTranslations("account.accounts");

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
        label={t("table")}
        columns={[
          { name: t("name") },
          { name: t("email") },
          { name: t("role") },
          { name: t("status") },
          { name: t("created") },
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
