"use client";

import { useCallback, useEffect, useState } from "react";
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

/**
 * Read-only links to this run's report. A new link's URL is shown once — the server keeps only a
 * hash of its token — with a Copy button; the list shows each link's label, dates and a Revoke button.
 */
export function SharePanel({ runId }: { runId: string }) {
  const [shares, setShares] = useState<ShareJson[]>([]);
  const [label, setLabel] = useState("");
  const [days, setDays] = useState(0);
  const [created, setCreated] = useState<string | null>(null);
  const [copied, setCopied] = useState<"no" | "yes" | "failed">("no");
  const [message, setMessage] = useState<string | null>(null);

  const load = useCallback(async () => {
    const list = await api<{ shares: ShareJson[] }>(`/api/runs/${runId}/shares`);
    setShares(list.shares);
  }, [runId]);

  useEffect(() => {
    load().catch((e) => setMessage(errorMessage(e)));
  }, [load]);

  async function act(action: () => Promise<void>) {
    setMessage(null);
    try {
      await action();
      await load();
    } catch (e) {
      setMessage(errorMessage(e));
    }
  }

  const create = () =>
    act(async () => {
      const body = {
        ...(label.trim() ? { label: label.trim() } : {}),
        ...(days ? { expiresInDays: days } : {}),
      };
      const share = await api<{ url: string }>(`/api/runs/${runId}/shares`, { method: "POST", body });
      setCreated(share.url);
      setCopied("no");
      setLabel("");
    });

  return (
    <section aria-label="Share" className="space-y-3">
      <h2 className="font-medium">Share the report</h2>
      <form
        aria-label="Create a share link"
        className="flex flex-wrap gap-2 text-sm"
        onSubmit={(e) => {
          e.preventDefault();
          void create();
        }}
      >
        <input
          aria-label="Label"
          value={label}
          maxLength={100}
          onChange={(e) => setLabel(e.target.value)}
          placeholder="Label (whom it is for)"
          className={`flex-1 ${inputStyle}`}
        />
        <select
          aria-label="Expires after"
          value={days}
          onChange={(e) => setDays(Number(e.target.value))}
          className={inputStyle}
        >
          {EXPIRY_CHOICES.map((c) => (
            <option key={c.days} value={c.days}>
              {c.text}
            </option>
          ))}
        </select>
        <button
          type="submit"
          className="rounded bg-zinc-900 px-3 text-white dark:bg-zinc-100 dark:text-zinc-900"
        >
          Create link
        </button>
      </form>
      {created && (
        <div className="space-y-1 rounded border border-emerald-300 p-3 text-sm dark:border-emerald-800">
          <p>New link — copy it now, it is not shown again:</p>
          <div className="flex gap-2">
            <input aria-label="New share link" readOnly value={created} className={`flex-1 ${inputStyle}`} />
            <button
              type="button"
              onClick={() =>
                // The clipboard needs a secure context (https or localhost); elsewhere, copy by hand.
                navigator.clipboard.writeText(created).then(
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
      )}
      {message && (
        <p role="alert" className="text-sm text-amber-700 dark:text-amber-400">
          {message}
        </p>
      )}
      <ShareList
        shares={shares}
        onRevoke={(id) => act(() => api(`/api/shares/${id}`, { method: "DELETE", body: undefined }))}
      />
    </section>
  );
}
