/**
 * Passwords an admin set for this account, on its owner's account page: who and when, whether that
 * password is still in use (then it is temporary: set your own), and every sign-in while it was —
 * time, address, browser. There is no button to hide or clear it; nobody can.
 */
import type { PasswordResetView } from "@/lib/server/accounts/password-resets";
import { DataTable } from "../data-table";
import { formatDate } from "../library/format";

const cell = "px-3 py-2";

function SignInTable({ reset }: { reset: PasswordResetView }) {
  if (reset.signIns.length === 0) {
    return <p className="text-sm text-muted">Nobody has signed in with this password.</p>;
  }
  return (
    <DataTable
      label={`Sign-ins with the password ${reset.resetByName} set`}
      columns={[{ name: "When" }, { name: "Address" }, { name: "Browser" }]}
    >
      {reset.signIns.map((s) => (
        <tr key={s.at} data-testid="reset-sign-in">
          <td className={`${cell} whitespace-nowrap`}>
            <time dateTime={s.at}>{formatDate(s.at)}</time>
          </td>
          <td className={`${cell} font-mono`}>{s.ipAddress ?? "unknown"}</td>
          <td className={`${cell} break-words text-muted`}>{s.userAgent ?? "unknown"}</td>
          <td />
        </tr>
      ))}
    </DataTable>
  );
}

function endText(reset: PasswordResetView): string {
  if (!reset.endedAt) return "This password is temporary: set your own below.";
  const when = formatDate(reset.endedAt);
  return reset.endReason === "reset_again"
    ? `An admin set another password on ${when}.`
    : `Replaced by a password set from this account on ${when}.`;
}

function ResetEntry({ reset }: { reset: PasswordResetView }) {
  return (
    <div className="space-y-2" data-testid="password-reset">
      <p className="text-sm">
        <strong>
          {reset.resetByName} ({reset.resetByEmail})
        </strong>{" "}
        set a new password for your account on{" "}
        <time dateTime={reset.createdAt}>{formatDate(reset.createdAt)}</time>. {endText(reset)}
      </p>
      <SignInTable reset={reset} />
    </div>
  );
}

export function PasswordResetsPanel({ resets }: { resets: PasswordResetView[] }) {
  if (resets.length === 0) return null;
  const open = resets.filter((r) => !r.endedAt);
  const past = resets.filter((r) => r.endedAt);
  return (
    <section aria-labelledby="account-resets" className="space-y-4">
      <h2 id="account-resets" className="text-lg font-medium">
        Passwords set by an admin
      </h2>
      <p className="max-w-2xl text-sm text-muted">
        An admin can set a new password for an account, for example when someone forgot theirs. Every such
        password, and every sign-in made with it, is listed here for you; nobody can remove this list.
      </p>
      {open.length > 0 && (
        <div
          role="alert"
          className="space-y-4 rounded-lg border border-amber-300 bg-amber-50 p-4 dark:border-amber-800 dark:bg-amber-950"
        >
          {open.map((r) => (
            <ResetEntry key={r.id} reset={r} />
          ))}
        </div>
      )}
      {past.map((r) => (
        <ResetEntry key={r.id} reset={r} />
      ))}
    </section>
  );
}
