/**
 * The admin's system page, section by section; every figure comes from the database. Runs appear as
 * their account, state and age only — never their question: admins do not read others' research.
 */
import { useFormatter, useTranslations } from "next-intl";
import type { SystemOverview } from "@/lib/server/operations/system";
import { useModelRoleName } from "../account/model-role";
import { useMoney } from "../account/money";
import { CostByDayChart } from "../account/usage-chart";
import { DataTable } from "../data-table";
import { type TimeWords, timeWords, useTimeFormat } from "../home/time-format";
import { becauseText } from "../run/because-text";
import type { Translate } from "../run/run-words";

const cell = "px-3 py-2";

/** "3 min", "2 h 5 min", "4 d": how long ago a run was started (`days` says the last). */
export function ageText(seconds: number, words: TimeWords, days: (days: number) => string): string {
  if (seconds < 60) return words.seconds(seconds);
  const minutes = Math.floor(seconds / 60);
  if (minutes < 60) return words.minutes(minutes);
  const hours = Math.floor(minutes / 60);
  if (hours < 48) return words.hoursMinutes(hours, minutes % 60);
  return days(Math.floor(hours / 24));
}

export function ActiveRunsTable({ runs }: { runs: SystemOverview["runs"] }) {
  const t = useTranslations("admin.system");
  const words = timeWords(useTranslations("format") as Parameters<typeof timeWords>[0]);
  if (runs.length === 0) return <p className="text-sm text-muted">{t("noRuns")}</p>;
  const waiting = runs.filter((r) => r.waiting).length;
  const accounts = new Set(runs.map((r) => r.ownerEmail)).size;
  return (
    <>
      <p className="text-sm" data-testid="system-active-counts">
        {t("activeCounts", { running: runs.length - waiting, waiting, accounts })}
      </p>
      <DataTable
        label={t("runsTable")}
        columns={[
          { name: t("owner") },
          { name: t("status") },
          { name: t("phase") },
          { name: t("age"), align: "right" },
        ]}
      >
        {runs.map((r) => (
          <tr key={r.id} className="align-top">
            <td className={cell}>{r.ownerEmail ?? t("noAccount")}</td>
            <td className={cell}>{r.waiting ? t("waiting") : t("statusName", { status: r.status })}</td>
            <td className={cell}>{r.phase ? t("phaseName", { phase: r.phase }) : "—"}</td>
            <td className={`${cell} whitespace-nowrap text-right`}>
              {ageText(r.ageSeconds, words, (days) => t("days", { days }))}
            </td>
            <td />
          </tr>
        ))}
      </DataTable>
    </>
  );
}

/**
 * A failure's reason in the reader's language by its code; a provider's own words stay on the
 * owner's run page. A failure recorded before codes keeps its stored English summary.
 */
function failureText(say: Translate, f: SystemOverview["failures"][number]) {
  if (!f.error) return say("admin.system.noReason");
  if (!f.because) return f.error;
  const text = becauseText(say, f.because, f.error);
  return f.cut ? `${text} ${say("admin.system.detailsForOwner")}` : text;
}

export function FailuresTable({ failures }: { failures: SystemOverview["failures"] }) {
  const t = useTranslations("admin.system");
  const say = useTranslations();
  const { absoluteTime } = useTimeFormat();
  if (failures.length === 0) return <p className="text-sm text-muted">{t("noFailures")}</p>;
  return (
    <DataTable
      label={t("failuresTable")}
      columns={[{ name: t("when") }, { name: t("owner") }, { name: t("phase") }, { name: t("reason") }]}
    >
      {failures.map((f) => (
        <tr key={f.id} className="align-top">
          <td className={`${cell} whitespace-nowrap`}>
            {f.finishedAt ? <time dateTime={f.finishedAt}>{absoluteTime(new Date(f.finishedAt))}</time> : "—"}
          </td>
          <td className={cell}>{f.ownerEmail ?? t("noAccount")}</td>
          <td className={cell}>{f.phase ? t("phaseName", { phase: f.phase }) : "—"}</td>
          <td className={`${cell} break-words`}>{failureText(say, f)}</td>
          <td />
        </tr>
      ))}
    </DataTable>
  );
}

export function ModelErrorsTable({ models }: { models: SystemOverview["models"] }) {
  const t = useTranslations("admin.system");
  const format = useFormatter();
  const roleName = useModelRoleName();
  const { whole } = useMoney();
  if (models.length === 0) return <p className="text-sm text-muted">{t("noCalls")}</p>;
  return (
    <DataTable
      label={t("modelsTable")}
      columns={[
        { name: t("role") },
        { name: t("calls"), align: "right" },
        { name: t("retried"), align: "right" },
        { name: t("errorRate"), align: "right" },
        { name: t("causes") },
      ]}
    >
      {models.map((m) => (
        <tr key={m.role}>
          <td className={cell}>{roleName(m.role)}</td>
          <td className={`${cell} text-right`}>{whole(m.calls)}</td>
          <td className={`${cell} text-right`}>{whole(m.retries)}</td>
          <td className={`${cell} text-right`}>
            {format.number(m.errorRate, {
              style: "percent",
              minimumFractionDigits: 1,
              maximumFractionDigits: 1,
            })}
          </td>
          <td className={cell}>
            {Object.entries(m.byStatus)
              .map(([status, n]) =>
                status === "network" ? t("causeNetwork", { count: n }) : t("causeHttp", { status, count: n }),
              )
              .join(", ") || "—"}
          </td>
          <td />
        </tr>
      ))}
    </DataTable>
  );
}

export function CostPanel({ overview }: { overview: SystemOverview }) {
  const t = useTranslations("admin.system");
  const { usd } = useMoney();
  const total = overview.costByDay.reduce((n, d) => n + d.costUsd, 0);
  const { completed, failed, cancelled } = overview.ended;
  return (
    <div className="space-y-3">
      <p className="text-sm">
        {t.rich("costSummary", {
          cost: usd(total),
          strong: (chunks) => <strong data-testid="system-total-cost">{chunks}</strong>,
          completed,
          failed,
          cancelled,
        })}
      </p>
      <CostByDayChart days={overview.costByDay} testId="system-cost-chart" label={t("costChart")} />
    </div>
  );
}
