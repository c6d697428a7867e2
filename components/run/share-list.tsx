"use client";

import { useActionState, useEffect } from "react";
import type { ActionState } from "@/lib/server/actions/action-state";
import { revokeShareAction } from "@/lib/server/actions/shares";
import type { ShareView } from "@/lib/server/shares/list";
import type { Jsonified } from "../jsonified";

export type ShareJson = Jsonified<ShareView>;

const day = (iso: string) => new Date(iso).toLocaleDateString();
const idle: ActionState = { status: "idle" };

/** Whether a link still opens the report, and if not, why. */
function shareState(s: ShareJson, now: number): string {
  if (s.revokedAt) return `revoked ${day(s.revokedAt)}`;
  if (s.expiresAt && Date.parse(s.expiresAt) <= now) return `expired ${day(s.expiresAt)}`;
  return s.expiresAt ? `expires ${day(s.expiresAt)}` : "no expiry";
}

/** The run's share links (never their URLs: those are shown once, at creation), each revocable. */
export function ShareList({ shares, onRevoked }: { shares: ShareJson[]; onRevoked: () => void }) {
  if (!shares.length) return <p className="text-sm text-muted">No share links yet.</p>;
  const now = Date.now();
  return (
    <ul aria-label="Share links" className="divide-y divide-zinc-200 text-sm dark:divide-zinc-800">
      {shares.map((s) => {
        const live = !s.revokedAt && !(s.expiresAt && Date.parse(s.expiresAt) <= now);
        return (
          <li key={s.id} className="flex flex-wrap items-center justify-between gap-x-3 gap-y-1 py-2">
            <span className="min-w-0 truncate">{s.label || "(no label)"}</span>
            <span className="shrink-0 text-muted">
              created {day(s.createdAt)} · {shareState(s, now)}
            </span>
            {live && <RevokeForm share={s} onRevoked={onRevoked} />}
          </li>
        );
      })}
    </ul>
  );
}

function RevokeForm({ share, onRevoked }: { share: ShareJson; onRevoked: () => void }) {
  const [state, formAction, pending] = useActionState(revokeShareAction, idle);
  useEffect(() => {
    if (state.status === "ok") onRevoked();
  }, [state, onRevoked]);
  return (
    <form action={formAction} className="shrink-0">
      <input type="hidden" name="shareId" value={share.id} />
      <button
        type="submit"
        disabled={pending}
        aria-label={`Revoke ${share.label || "link"}`}
        className="rounded border border-red-300 px-2 py-0.5 text-red-700 hover:bg-red-50 disabled:opacity-60 dark:border-red-800 dark:text-red-400 dark:hover:bg-red-950"
      >
        Revoke
      </button>
      {state.status === "error" && (
        <span role="alert" className="ml-2 text-amber-700 dark:text-amber-400">
          {state.message}
        </span>
      )}
    </form>
  );
}
