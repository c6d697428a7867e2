/**
 * Passwords an admin set for this account, on its owner's account page: who and when, whether that
 * password is still in use (then it is temporary: set your own), and every sign-in while it was —
 * time, address, browser. There is no button to hide or clear it; nobody can.
 */
import { useTranslations } from "next-intl";
import type { PasswordResetView } from "@/lib/server/accounts/password-resets";
import { DataTable } from "../data-table";
import { useTimeFormat } from "../home/time-format";

const cell = "px-3 py-2";

function SignInTable({ reset }: { reset: PasswordResetView }) {
  const t = useTranslations("account.resets");
  const { absoluteTime } = useTimeFormat();
  if (reset.signIns.length === 0) {
    return <p className="text-sm text-muted">{t("noSignIns")}</p>;
  }
  return (
    <DataTable
      label={t("signInsTable", { name: reset.resetByName })}
      columns={[{ name: t("when") }, { name: t("address") }, { name: t("browser") }]}
    >
      {reset.signIns.map((s) => (
        <tr key={s.at} data-testid="reset-sign-in">
          <td className={`${cell} whitespace-nowrap`}>
            <time dateTime={s.at}>{absoluteTime(new Date(s.at))}</time>
          </td>
          <td className={`${cell} font-mono`}>{s.ipAddress ?? t("unknown")}</td>
          <td className={`${cell} break-words text-muted`}>{s.userAgent ?? t("unknown")}</td>
          <td />
        </tr>
      ))}
    </DataTable>
  );
}

function ResetEntry({ reset }: { reset: PasswordResetView }) {
  const t = useTranslations("account.resets");
  const { absoluteTime } = useTimeFormat();
  const ended = reset.endedAt ? absoluteTime(new Date(reset.endedAt)) : null;
  return (
    <div className="space-y-2" data-testid="password-reset">
      <p className="text-sm">
        {t.rich("setBy", {
          who: () => (
            <strong>
              {reset.resetByName} ({reset.resetByEmail})
            </strong>
          ),
          when: () => <time dateTime={reset.createdAt}>{absoluteTime(new Date(reset.createdAt))}</time>,
        })}{" "}
        {ended === null
          ? t("temporary")
          : reset.endReason === "reset_again"
            ? t("resetAgain", { when: ended })
            : t("replaced", { when: ended })}
      </p>
      <SignInTable reset={reset} />
    </div>
  );
}

export function PasswordResetsPanel({ resets }: { resets: PasswordResetView[] }) {
  const t = useTranslations("account.resets");
  if (resets.length === 0) return null;
  const open = resets.filter((r) => !r.endedAt);
  const past = resets.filter((r) => r.endedAt);
  return (
    <section aria-labelledby="account-resets" className="space-y-4">
      <h2 id="account-resets" className="text-lg font-medium">
        {t("title")}
      </h2>
      <p className="max-w-2xl text-sm text-muted">{t("intro")}</p>
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
