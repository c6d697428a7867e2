"use client";

import { useTranslations } from "next-intl";
import { useActionState, useCallback, useEffect, useState } from "react";
import type { ActionState } from "@/lib/server/actions/action-state";
import { createShareAction } from "@/lib/server/actions/shares";
import { api } from "../knowledge/api";
import { errorMessage } from "../read-response";
import { type ShareJson, ShareList } from "./share-list";

const EXPIRY_CHOICES = [
  { days: 0, text: "never expires" },
  { days: 1, text: "1 day" },
  { days: 7, text: "7 days" },
  { days: 30, text: "30 days" },
  { days: 90, text: "90 days" },
  { days: 365, text: "1 year" },
];

const inputStyle = "rounded border border-zinc-300 px-2 py-1 dark:border-zinc-700 dark:bg-zinc-900";
const idle: ActionState = { status: "idle" };

/**
 * Read-only links to this run's report. The form posts to a server action (it works before the
 * page's script runs); a new link's URL is shown once — the server keeps only a hash of its token —
 * with a Copy button; the list shows each link's label, dates and a Revoke button.
 */
export function SharePanel({ runId }: { runId: string }) {
  const t = useTranslations("share.thread");
  const [state, formAction, pending] = useActionState(createShareAction, idle);
  const [shares, setShares] = useState<ShareJson[]>([]);
  const [message, setMessage] = useState<string | null>(null);

  const load = useCallback(() => {
    api<{ shares: ShareJson[] }>(`/api/runs/${runId}/shares`).then(
      (list) => setShares(list.shares),
      (e) => setMessage(errorMessage(e)),
    );
  }, [runId]);

  // The list again after each create (the state changes) and each revoke.
  // biome-ignore lint/correctness/useExhaustiveDependencies: reload when an action answered
  useEffect(load, [load, state]);

  const created = state.status === "ok" && typeof state.data?.url === "string" ? state.data.url : null;
  return (
    <section aria-label="Share" data-print="hide" className="space-y-3">
      <h2 className="font-medium">Share the report</h2>
      <form action={formAction} aria-label="Create a share link" className="flex flex-wrap gap-2 text-sm">
        <input type="hidden" name="runId" value={runId} />
        <input
          aria-label="Label"
          name="label"
          maxLength={100}
          placeholder="Label (whom it is for)"
          className={`min-w-0 flex-1 ${inputStyle}`}
        />
        <select aria-label="Expires after" name="expiresInDays" defaultValue="0" className={inputStyle}>
          {EXPIRY_CHOICES.map((c) => (
            <option key={c.days} value={c.days}>
              {c.text}
            </option>
          ))}
        </select>
        <label className="flex items-center gap-1">
          <input type="checkbox" name="allowDownload" /> Readers may download a PDF
        </label>
        <label className="flex items-center gap-1">
          <input type="checkbox" name="includeThread" /> {t("include")}
        </label>
        <button
          type="submit"
          disabled={pending}
          className="rounded bg-zinc-900 px-3 py-1 text-white disabled:opacity-60 dark:bg-zinc-100 dark:text-zinc-900"
        >
          Create link
        </button>
      </form>
      <div aria-live="polite" className="space-y-1 text-sm">
        {created && <NewLink url={created} />}
        {state.status === "error" && (
          <p role="alert" className="text-amber-700 dark:text-amber-400">
            {state.message}
          </p>
        )}
        {message && <p className="text-amber-700 dark:text-amber-400">{message}</p>}
      </div>
      <ShareList shares={shares} onRevoked={load} />
    </section>
  );
}

function NewLink({ url }: { url: string }) {
  const [copied, setCopied] = useState<"no" | "yes" | "failed">("no");
  return (
    <div className="space-y-1 rounded border border-emerald-300 p-3 dark:border-emerald-800">
      <p>New link — copy it now, it is not shown again:</p>
      <div className="flex gap-2">
        <input aria-label="New share link" readOnly value={url} className={`min-w-0 flex-1 ${inputStyle}`} />
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
          {{ no: "Copy", yes: "Copied", failed: "Select and copy it" }[copied]}
        </button>
      </div>
    </div>
  );
}
