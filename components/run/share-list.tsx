import type { ShareView } from "@/lib/server/shares";
import type { Jsonified } from "../jsonified";

export type ShareJson = Jsonified<ShareView>;

const day = (iso: string) => new Date(iso).toLocaleDateString();

/** Whether a link still opens the report, and if not, why. */
function shareState(s: ShareJson, now: number): string {
  if (s.revokedAt) return `revoked ${day(s.revokedAt)}`;
  if (s.expiresAt && Date.parse(s.expiresAt) <= now) return `expired ${day(s.expiresAt)}`;
  return s.expiresAt ? `expires ${day(s.expiresAt)}` : "no expiry";
}

/** The run's share links (never their URLs: those are shown once, at creation), each revocable. */
export function ShareList({ shares, onRevoke }: { shares: ShareJson[]; onRevoke: (id: string) => void }) {
  if (!shares.length) return <p className="text-sm text-muted">No share links yet.</p>;
  const now = Date.now();
  return (
    <ul aria-label="Share links" className="divide-y divide-zinc-200 text-sm dark:divide-zinc-800">
      {shares.map((s) => {
        const live = !s.revokedAt && !(s.expiresAt && Date.parse(s.expiresAt) <= now);
        return (
          <li key={s.id} className="flex items-center justify-between gap-3 py-2">
            <span className="truncate">{s.label || "(no label)"}</span>
            <span className="shrink-0 text-muted">
              created {day(s.createdAt)} · {shareState(s, now)}
            </span>
            {live && (
              <button
                type="button"
                onClick={() => onRevoke(s.id)}
                aria-label={`Revoke ${s.label || "link"}`}
                className="shrink-0 rounded border border-red-300 px-2 py-0.5 text-red-700 hover:bg-red-50 dark:border-red-800 dark:text-red-400"
              >
                Revoke
              </button>
            )}
          </li>
        );
      })}
    </ul>
  );
}
