"use client";

import { useFormatter, useTranslations } from "next-intl";
import { useActionState, useEffect, useRef } from "react";
import type { ActionState } from "@/lib/server/actions/action-state";
import { revokeShareAction } from "@/lib/server/actions/shares";
import type { ShareView } from "@/lib/server/shares/list";
import { ApiError } from "../api-client";
import { useErrorText } from "../error-text";
import type { Jsonified } from "../jsonified";

export type ShareJson = Jsonified<ShareView>;

const idle: ActionState = { status: "idle" };

/** Whether a link still opens the report, and if not, why ("revoked 3 Mar 2031"). */
function shareState(
  s: ShareJson,
  now: number,
  t: (key: "revoked" | "expired" | "expires" | "noExpiry", values?: { date: string }) => string,
  day: (iso: string) => string,
): string {
  if (s.revokedAt) return t("revoked", { date: day(s.revokedAt) });
  if (s.expiresAt && Date.parse(s.expiresAt) <= now) return t("expired", { date: day(s.expiresAt) });
  return s.expiresAt ? t("expires", { date: day(s.expiresAt) }) : t("noExpiry");
}

/** The run's share links (never their URLs: those are shown once, at creation), each revocable. */
export function ShareList({ shares, onRevoked }: { shares: ShareJson[]; onRevoked: () => void }) {
  const t = useTranslations("share.list");
  const format = useFormatter();
  const day = (iso: string) => format.dateTime(new Date(iso), { dateStyle: "medium" });
  if (!shares.length) return <p className="text-sm text-muted">{t("none")}</p>;
  const now = Date.now();
  return (
    <ul aria-label={t("label")} className="divide-y divide-zinc-200 text-sm dark:divide-zinc-800">
      {shares.map((s) => {
        const live = !s.revokedAt && !(s.expiresAt && Date.parse(s.expiresAt) <= now);
        return (
          <li key={s.id} className="flex flex-wrap items-center justify-between gap-x-3 gap-y-1 py-2">
            <span className="min-w-0 truncate">{s.label || t("unnamed")}</span>
            <span className="shrink-0 text-muted">
              {t("created", { date: day(s.createdAt) })} · {shareState(s, now, t, day)}
            </span>
            {live && <RevokeForm share={s} onRevoked={onRevoked} />}
          </li>
        );
      })}
    </ul>
  );
}

/** Revoke asks first (a revoked link cannot be brought back): a disclosure, so it works without script too. */
function RevokeForm({ share, onRevoked }: { share: ShareJson; onRevoked: () => void }) {
  const t = useTranslations("share.revoke");
  const errorText = useErrorText();
  const [state, formAction, pending] = useActionState(revokeShareAction, idle);
  const details = useRef<HTMLDetailsElement>(null);
  useEffect(() => {
    if (state.status === "ok") onRevoked();
  }, [state, onRevoked]);
  const name = share.label || t("unnamed");
  return (
    <details ref={details} className="shrink-0">
      <summary
        aria-label={t("ask", { name })}
        className="cursor-pointer list-none rounded border border-red-300 px-2 py-0.5 text-red-700 hover:bg-red-50 dark:border-red-800 dark:text-red-400 dark:hover:bg-red-950"
      >
        {t("button")}
      </summary>
      <form
        action={formAction}
        className="mt-2 space-y-2 rounded border border-red-300 p-2 dark:border-red-800"
      >
        <p>{t("question", { name })}</p>
        <input type="hidden" name="shareId" value={share.id} />
        <div className="flex flex-wrap gap-2">
          <button
            type="submit"
            disabled={pending}
            className="rounded border border-red-700 bg-red-700 px-2 py-0.5 text-white disabled:opacity-60 dark:border-red-400 dark:bg-red-400 dark:text-zinc-950"
          >
            {t("confirm")}
          </button>
          <button
            type="button"
            onClick={() => details.current?.removeAttribute("open")}
            className="rounded border border-zinc-400 px-2 py-0.5 dark:border-zinc-600"
          >
            {t("keep")}
          </button>
        </div>
        {state.status === "error" && (
          <p role="alert" className="text-amber-700 dark:text-amber-400">
            {errorText(new ApiError(0, state.code, state.message))}
          </p>
        )}
      </form>
    </details>
  );
}
