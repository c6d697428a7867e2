"use client";

import { useTranslations } from "next-intl";
import { useActionState, useCallback, useEffect, useState } from "react";
import type { ActionState } from "@/lib/server/actions/action-state";
import { createShareAction } from "@/lib/server/actions/shares";
import { ApiError, api } from "../api-client";
import { useErrorText } from "../error-text";
import { type ShareJson, ShareList } from "./share-list";

/** How long a new link lasts, in days (0: it never expires). */
const EXPIRY_DAYS = [0, 1, 7, 30, 90, 365];

const inputStyle = "rounded border border-zinc-300 px-2 py-1 dark:border-zinc-700 dark:bg-zinc-900";
const idle: ActionState = { status: "idle" };

/**
 * Read-only links to this run's report. The form posts to a server action (it works before the
 * page's script runs); a new link's URL is shown once — the server keeps only a hash of its token —
 * with a Copy button; the list shows each link's label, dates and a Revoke button.
 */
export function SharePanel({ runId }: { runId: string }) {
  const t = useTranslations("share.panel");
  const thread = useTranslations("share.thread");
  const errorText = useErrorText();
  const [state, formAction, pending] = useActionState(createShareAction, idle);
  const [shares, setShares] = useState<ShareJson[]>([]);
  const [failure, setFailure] = useState<unknown>(null);

  const load = useCallback(() => {
    api<{ shares: ShareJson[] }>(`/api/runs/${runId}/shares`).then(
      (list) => setShares(list.shares),
      // Kept as the error and put into words when shown, in the page's language.
      (e) => setFailure(e),
    );
  }, [runId]);

  // The list again after each create (the state changes) and each revoke.
  // biome-ignore lint/correctness/useExhaustiveDependencies: reload when an action answered
  useEffect(load, [load, state]);

  const created = state.status === "ok" && typeof state.data?.url === "string" ? state.data.url : null;
  return (
    <section aria-label={t("label")} data-print="hide" className="space-y-3">
      <h2 className="font-medium">{t("heading")}</h2>
      <form action={formAction} aria-label={t("form")} className="flex flex-wrap gap-2 text-sm">
        <input type="hidden" name="runId" value={runId} />
        <input
          aria-label={t("name")}
          name="label"
          maxLength={100}
          placeholder={t("namePlaceholder")}
          className={`min-w-0 flex-1 ${inputStyle}`}
        />
        <select aria-label={t("expires")} name="expiresInDays" defaultValue="0" className={inputStyle}>
          {EXPIRY_DAYS.map((days) => (
            <option key={days} value={days}>
              {days === 0
                ? t("never")
                : days % 365 === 0
                  ? t("years", { count: days / 365 })
                  : t("days", { count: days })}
            </option>
          ))}
        </select>
        <label className="flex items-center gap-1">
          <input type="checkbox" name="allowDownload" /> {t("allowDownload")}
        </label>
        <label className="flex items-center gap-1">
          <input type="checkbox" name="includeThread" /> {thread("include")}
        </label>
        <button
          type="submit"
          disabled={pending}
          className="rounded bg-zinc-900 px-3 py-1 text-white disabled:opacity-60 dark:bg-zinc-100 dark:text-zinc-900"
        >
          {t("create")}
        </button>
      </form>
      <div aria-live="polite" className="space-y-1 text-sm">
        {created && <NewLink url={created} />}
        {state.status === "error" && (
          <p role="alert" className="text-amber-700 dark:text-amber-400">
            {errorText(new ApiError(0, state.code, state.message))}
          </p>
        )}
        {failure !== null && <p className="text-amber-700 dark:text-amber-400">{errorText(failure)}</p>}
      </div>
      <ShareList shares={shares} onRevoked={load} />
    </section>
  );
}

function NewLink({ url }: { url: string }) {
  const t = useTranslations("share.panel");
  const [copied, setCopied] = useState<"no" | "yes" | "failed">("no");
  return (
    <div className="space-y-1 rounded border border-emerald-300 p-3 dark:border-emerald-800">
      <p>{t("newLink")}</p>
      <div className="flex gap-2">
        <input
          aria-label={t("newLinkField")}
          readOnly
          value={url}
          className={`min-w-0 flex-1 ${inputStyle}`}
        />
        <button
          type="button"
          onClick={() =>
            // The clipboard needs a secure context (https or localhost); elsewhere, copy by hand.
            navigator.clipboard.writeText(url).then(
              () => setCopied("yes"),
              () => setCopied("failed"),
            )
          }
          className="rounded border border-zinc-300 px-3 dark:border-zinc-700"
        >
          {{ no: t("copy"), yes: t("copied"), failed: t("copyFailed") }[copied]}
        </button>
      </div>
    </div>
  );
}
