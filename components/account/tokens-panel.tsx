"use client";

import { useTranslations } from "next-intl";
import { useActionState, useCallback, useEffect, useId, useRef, useState } from "react";
import type { ActionState } from "@/lib/server/actions/action-state";
import { createTokenAction, revokeTokenAction } from "@/lib/server/actions/tokens";
import type { TokenView } from "@/lib/server/tokens/view";
import {
  ADMIN_TOKEN_MAX_DAYS,
  TOKEN_DEFAULT_DAYS,
  TOKEN_MAX_DAYS,
  type TokenScope,
} from "@/lib/token-scopes";
import { useActionError } from "../action-error";
import { api } from "../api-client";
import { DataTable } from "../data-table";
import { useErrorText } from "../error-text";
import { useTimeFormat } from "../home/time-format";
import type { Jsonified } from "../jsonified";
import { CopyField } from "./copy-field";
import { Field, FormError, inputClass, SubmitButton, smallButton } from "./form-parts";

export type TokenRow = Jsonified<TokenView>;

const idle: ActionState = { status: "idle" };

const scopeChoices: { value: TokenScope; adminOnly?: boolean }[] = [
  { value: "research" },
  { value: "read" },
  { value: "admin", adminOnly: true },
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
  // In a ref: the list loads once per create answer, not again when the translator is made anew.
  const errorText = useRef(useErrorText());
  const t = useTranslations("account.tokens");

  const load = useCallback(() => {
    api<{ tokens: TokenRow[] }>("/api/tokens").then(
      (list) => {
        setTokens(list.tokens);
        setLoadError(null);
      },
      (e) => setLoadError(errorText.current(e)),
    );
  }, []);
  // biome-ignore lint/correctness/useExhaustiveDependencies: reload when the create action answered
  useEffect(load, [load, state]);

  const secret = state.status === "ok" && typeof state.data?.secret === "string" ? state.data.secret : null;
  return (
    <section aria-labelledby="account-tokens" className="space-y-4">
      <h2 id="account-tokens" className="text-lg font-medium">
        {t("title")}
      </h2>
      <p className="max-w-2xl text-sm text-muted">
        {t.rich("intro", {
          code: (chunks) => <code>{chunks}</code>,
          link: (chunks) => (
            <a href="/docs/api" className="text-blue-700 underline dark:text-blue-400">
              {chunks}
            </a>
          ),
        })}
      </p>
      <CreateTokenForm action={formAction} pending={pending} state={state} isAdmin={isAdmin} />
      <div aria-live="polite">
        {secret && (
          <div
            data-testid="new-token"
            className="max-w-xl space-y-2 rounded-lg border border-amber-300 bg-amber-50 p-4 dark:border-amber-800 dark:bg-amber-950"
          >
            <p className="text-sm font-medium">{t("copyNow")}</p>
            <CopyField label={t("newToken")} value={secret} />
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
  const t = useTranslations("account.tokens");
  const actionError = useActionError();
  const scopes = scopeChoices
    .filter((c) => isAdmin || !c.adminOnly)
    .map((c) => ({
      value: c.value,
      label: c.value === "admin" ? t("scopes.admin", { days: ADMIN_TOKEN_MAX_DAYS }) : t(`scopes.${c.value}`),
    }));
  const days = expiryChoices.map((d) => ({
    value: String(d),
    label: t(d === TOKEN_DEFAULT_DAYS ? "daysDefault" : "days", { days: d }),
  }));
  return (
    <form
      action={action}
      aria-label={t("form")}
      aria-busy={pending}
      className="grid max-w-xl gap-3 rounded-lg border border-zinc-200 bg-white p-4 sm:grid-cols-[1fr_10rem] dark:border-zinc-800 dark:bg-zinc-900"
    >
      <Field id={`${id}-name`} name="name" label={t("name")} required maxLength={100} hint={t("nameHint")} />
      <Choice
        id={`${id}-days`}
        name="expiresInDays"
        label={t("expiresAfter")}
        defaultValue={String(TOKEN_DEFAULT_DAYS)}
        options={days}
      />
      <div className="sm:col-span-2">
        <Choice id={`${id}-scope`} name="scope" label={t("scope")} defaultValue="research" options={scopes} />
      </div>
      <div className="sm:col-span-2">
        <Field
          id={`${id}-webhook`}
          name="webhookUrl"
          label={t("webhook")}
          type="url"
          maxLength={2000}
          placeholder="https://example.org/hooks/research"
          hint={t("webhookHint")}
        />
      </div>
      <div className="space-y-2 sm:col-span-2">
        <FormError message={actionError(state)} />
        <SubmitButton busy={pending} busyLabel={t("creating")}>
          {t("create")}
        </SubmitButton>
      </div>
    </form>
  );
}

/** A day in a narrow table cell (ISO, the same in every language), the full UTC time on hover. */
function Day({ iso }: { iso: string }) {
  const { absoluteTime } = useTimeFormat();
  return (
    <time dateTime={iso} title={absoluteTime(new Date(iso))}>
      {iso.slice(0, 10)}
    </time>
  );
}

/** Whether a token still works, and if not, since when. */
function tokenState(token: TokenRow, now: number): "active" | "expired" | "revoked" {
  if (token.revokedAt) return "revoked";
  if (Date.parse(token.expiresAt) <= now) return "expired";
  return "active";
}

function TokenTable({ tokens, onRevoked }: { tokens: TokenRow[]; onRevoked: () => void }) {
  const tr = useTranslations("account.tokens");
  if (tokens.length === 0) return <p className="text-sm text-muted">{tr("none")}</p>;
  const now = Date.now();
  return (
    <DataTable
      label={tr("title")}
      columns={[
        { name: tr("name") },
        { name: tr("token") },
        { name: tr("scope") },
        { name: tr("created") },
        { name: tr("lastUsed") },
        { name: tr("expires") },
        { name: tr("state") },
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
                <span className="block text-xs text-muted" title={tr("upgradeHint")}>
                  {tr("upgrade")}
                </span>
              )}
            </td>
            <td className="whitespace-nowrap px-3 py-2">
              <Day iso={t.createdAt} />
            </td>
            <td className="whitespace-nowrap px-3 py-2">
              {t.lastUsedAt ? <Day iso={t.lastUsedAt} /> : tr("never")}
            </td>
            <td className="whitespace-nowrap px-3 py-2" data-testid="token-expires">
              <Day iso={t.expiresAt} />
            </td>
            <td className="whitespace-nowrap px-3 py-2" data-testid="token-state">
              {state === "revoked"
                ? tr("states.revoked", { date: t.revokedAt?.slice(0, 10) ?? "" })
                : tr(`states.${state}`)}
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
  const t = useTranslations("account.tokens");
  const actionError = useActionError();
  useEffect(() => {
    if (state.status === "ok") onRevoked();
  }, [state, onRevoked]);

  if (!confirming) {
    return (
      <button
        type="button"
        onClick={() => setConfirming(true)}
        aria-label={t("revokeLabel", { name: token.name })}
        className={smallButton}
      >
        {t("revoke")}
      </button>
    );
  }
  return (
    <form action={formAction} className="flex flex-wrap items-center justify-end gap-2">
      <input type="hidden" name="tokenId" value={token.id} />
      <span role="alert" className="text-sm">
        {t("revokeAsk", { name: token.name })}
      </span>
      <button
        type="submit"
        disabled={pending}
        className="rounded border border-red-300 px-2 py-0.5 text-sm text-red-700 hover:bg-red-50 disabled:opacity-60 dark:border-red-800 dark:text-red-400 dark:hover:bg-red-950"
      >
        {t("revokeConfirm")}
      </button>
      <button type="button" onClick={() => setConfirming(false)} className={smallButton}>
        {t("keep")}
      </button>
      {state.status === "error" && (
        <span role="alert" className="text-sm text-amber-700 dark:text-amber-400">
          {actionError(state)}
        </span>
      )}
    </form>
  );
}
