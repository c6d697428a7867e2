"use client";

import { useActionState, useCallback, useEffect, useId, useState } from "react";
import type { ActionState } from "@/lib/server/actions/action-state";
import { createTokenAction, revokeTokenAction } from "@/lib/server/actions/tokens";
import type { TokenView } from "@/lib/server/tokens";
import {
  ADMIN_TOKEN_MAX_DAYS,
  TOKEN_DEFAULT_DAYS,
  TOKEN_MAX_DAYS,
  type TokenScope,
} from "@/lib/token-scopes";
import { api, errorText } from "../api-client";
import { DataTable } from "../data-table";
import type { Jsonified } from "../jsonified";
import { formatDate } from "../library/format";
import { CopyField } from "./copy-field";
import { Field, FormError, inputClass, SubmitButton, smallButton } from "./form-parts";

export type TokenRow = Jsonified<TokenView>;

const idle: ActionState = { status: "idle" };

const scopeChoices: { value: TokenScope; label: string; adminOnly?: boolean }[] = [
  { value: "research", label: "research — start, steer and read your runs; your library and knowledge" },
  { value: "read", label: "read — read your runs, reports, library and knowledge; change nothing" },
  {
    value: "admin",
    label: `admin — read the system status, accounts and metrics (at most ${ADMIN_TOKEN_MAX_DAYS} days)`,
    adminOnly: true,
  },
];

const expiryChoices = [7, 30, TOKEN_DEFAULT_DAYS, 180, TOKEN_MAX_DAYS];

/**
 * Personal API tokens: create one with a scope and an expiry (its secret shown only in this answer,
 * with a Copy button), see the list with each token's scope, expiry and last use (never a secret:
 * the last four characters tell them apart), revoke one after confirming.
 */
export function TokensPanel({ isAdmin }: { isAdmin: boolean }) {
  const [state, formAction, pending] = useActionState(createTokenAction, idle);
  const [tokens, setTokens] = useState<TokenRow[] | null>(null);
  const [loadError, setLoadError] = useState<string | null>(null);

  const load = useCallback(() => {
    api<{ tokens: TokenRow[] }>("/api/tokens").then(
      (list) => {
        setTokens(list.tokens);
        setLoadError(null);
      },
      (e) => setLoadError(errorText(e)),
    );
  }, []);
  // biome-ignore lint/correctness/useExhaustiveDependencies: reload when the create action answered
  useEffect(load, [load, state]);

  const secret = state.status === "ok" && typeof state.data?.secret === "string" ? state.data.secret : null;
  return (
    <section aria-labelledby="account-tokens" className="space-y-4">
      <h2 id="account-tokens" className="text-lg font-medium">
        API tokens
      </h2>
      <p className="max-w-2xl text-sm text-muted">
        A token lets a script, an editor or an agent use the API and the MCP server as you: send it as{" "}
        <code>Authorization: Bearer …</code>. It can do only what its scope allows, never more than you, and
        stops working when it expires, when you change your password, or when you sign out everywhere.
        Changing settings, accounts and invitations, and taking backups, always need you signed in here.
      </p>
      <CreateTokenForm action={formAction} pending={pending} state={state} isAdmin={isAdmin} />
      <div aria-live="polite">
        {secret && (
          <div
            data-testid="new-token"
            className="max-w-xl space-y-2 rounded-lg border border-amber-300 bg-amber-50 p-4 dark:border-amber-800 dark:bg-amber-950"
          >
            <p className="text-sm font-medium">
              Copy your new token now: you will not see it again. If you lose it, revoke it and create
              another.
            </p>
            <CopyField label="Your new token" value={secret} />
          </div>
        )}
      </div>
      <FormError message={loadError} />
      {tokens && <TokenTable tokens={tokens} onRevoked={load} />}
    </section>
  );
}

function Choice({
  id,
  name,
  label,
  defaultValue,
  options,
}: {
  id: string;
  name: string;
  label: string;
  defaultValue: string;
  options: { value: string; label: string }[];
}) {
  return (
    <div className="space-y-1">
      <label htmlFor={id} className="block text-sm font-medium">
        {label}
      </label>
      <select id={id} name={name} defaultValue={defaultValue} className={inputClass}>
        {options.map((o) => (
          <option key={o.value} value={o.value}>
            {o.label}
          </option>
        ))}
      </select>
    </div>
  );
}

function CreateTokenForm({
  action,
  pending,
  state,
  isAdmin,
}: {
  action: (form: FormData) => void;
  pending: boolean;
  state: ActionState;
  isAdmin: boolean;
}) {
  const id = useId();
  const scopes = scopeChoices.filter((c) => isAdmin || !c.adminOnly);
  const days = expiryChoices.map((d) => ({
    value: String(d),
    label: `${d} days${d === TOKEN_DEFAULT_DAYS ? " (default)" : ""}`,
  }));
  return (
    <form
      action={action}
      aria-label="Create an API token"
      aria-busy={pending}
      className="grid max-w-xl gap-3 rounded-lg border border-zinc-200 bg-white p-4 sm:grid-cols-[1fr_10rem] dark:border-zinc-800 dark:bg-zinc-900"
    >
      <Field
        id={`${id}-name`}
        name="name"
        label="Name"
        required
        maxLength={100}
        hint="What will use it, e.g. “laptop script” or “editor”."
      />
      <Choice
        id={`${id}-days`}
        name="expiresInDays"
        label="Expires after"
        defaultValue={String(TOKEN_DEFAULT_DAYS)}
        options={days}
      />
      <div className="sm:col-span-2">
        <Choice id={`${id}-scope`} name="scope" label="Scope" defaultValue="research" options={scopes} />
      </div>
      <div className="sm:col-span-2">
        <Field
          id={`${id}-webhook`}
          name="webhookUrl"
          label="Webhook URL (optional)"
          type="url"
          maxLength={2000}
          placeholder="https://example.org/hooks/research"
          hint="Runs started with this token post their result here when they finish, signed with your webhook secret."
        />
      </div>
      <div className="space-y-2 sm:col-span-2">
        <FormError message={state.status === "error" ? state.message : null} />
        <SubmitButton busy={pending} busyLabel="Creating…">
          Create token
        </SubmitButton>
      </div>
    </form>
  );
}

/** A day in a narrow table cell, the full UTC time on hover. */
function Day({ iso }: { iso: string }) {
  return (
    <time dateTime={iso} title={formatDate(iso)}>
      {iso.slice(0, 10)}
    </time>
  );
}

/** Whether a token still works, and if not, since when. */
function tokenState(t: TokenRow, now: number): string {
  if (t.revokedAt) return `revoked ${t.revokedAt.slice(0, 10)}`;
  if (Date.parse(t.expiresAt) <= now) return "expired";
  return "active";
}

function TokenTable({ tokens, onRevoked }: { tokens: TokenRow[]; onRevoked: () => void }) {
  if (tokens.length === 0) return <p className="text-sm text-muted">No API tokens yet.</p>;
  const now = Date.now();
  return (
    <DataTable
      label="API tokens"
      columns={[
        { name: "Name" },
        { name: "Token" },
        { name: "Scope" },
        { name: "Created" },
        { name: "Last used" },
        { name: "Expires" },
        { name: "State" },
      ]}
    >
      {tokens.map((t) => {
        const state = tokenState(t, now);
        return (
          <tr key={t.id} data-testid="token-row">
            <td className="px-3 py-2">{t.name}</td>
            <td className="whitespace-nowrap px-3 py-2 font-mono" data-testid="token-hint">
              …{t.hint}
            </td>
            <td className="px-3 py-2" data-testid="token-scope">
              {t.scope}
              {t.scopeFromUpgrade && (
                <span
                  className="block text-xs text-muted"
                  title="Made before tokens had scopes: the upgrade made it a research token that expires 90 days after it."
                >
                  set by the upgrade
                </span>
              )}
            </td>
            <td className="whitespace-nowrap px-3 py-2">
              <Day iso={t.createdAt} />
            </td>
            <td className="whitespace-nowrap px-3 py-2">
              {t.lastUsedAt ? <Day iso={t.lastUsedAt} /> : "never"}
            </td>
            <td className="whitespace-nowrap px-3 py-2" data-testid="token-expires">
              <Day iso={t.expiresAt} />
            </td>
            <td className="whitespace-nowrap px-3 py-2" data-testid="token-state">
              {state}
            </td>
            <td className="px-3 py-2 text-right">
              {state === "active" && <RevokeToken token={t} onRevoked={onRevoked} />}
            </td>
          </tr>
        );
      })}
    </DataTable>
  );
}

/** Revoking asks once more: whatever uses the token stops working at once. */
function RevokeToken({ token, onRevoked }: { token: TokenRow; onRevoked: () => void }) {
  const [state, formAction, pending] = useActionState(revokeTokenAction, idle);
  const [confirming, setConfirming] = useState(false);
  useEffect(() => {
    if (state.status === "ok") onRevoked();
  }, [state, onRevoked]);

  if (!confirming) {
    return (
      <button
        type="button"
        onClick={() => setConfirming(true)}
        aria-label={`Revoke ${token.name}`}
        className={smallButton}
      >
        Revoke
      </button>
    );
  }
  return (
    <form action={formAction} className="flex flex-wrap items-center justify-end gap-2">
      <input type="hidden" name="tokenId" value={token.id} />
      <span role="alert" className="text-sm">
        Revoke “{token.name}”? Anything using it stops working.
      </span>
      <button
        type="submit"
        disabled={pending}
        className="rounded border border-red-300 px-2 py-0.5 text-sm text-red-700 hover:bg-red-50 disabled:opacity-60 dark:border-red-800 dark:text-red-400 dark:hover:bg-red-950"
      >
        Yes, revoke
      </button>
      <button type="button" onClick={() => setConfirming(false)} className={smallButton}>
        Keep it
      </button>
      {state.status === "error" && (
        <span role="alert" className="text-sm text-amber-700 dark:text-amber-400">
          {state.message}
        </span>
      )}
    </form>
  );
}
