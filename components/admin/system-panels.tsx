/**
 * The admin's system page, section by section; every figure comes from the database. Runs appear as
 * their account, state and age only — never their question: admins do not read others' research.
 */
import type { SystemOverview } from "@/lib/server/operations/system";
import { CostByDayChart } from "../account/usage-chart";
import { usd, whole } from "../account/usage-panel";
import { DataTable } from "../data-table";
import { labelFor, modelRoleLabels, runPhaseLabels, runStatusLabels } from "../labels";

const cell = "px-3 py-2";

/** "3 min", "2 h 5 min", "4 d": how long ago a run was started. */
export function ageText(seconds: number): string {
  if (seconds < 60) return `${seconds} s`;
  const minutes = Math.floor(seconds / 60);
  if (minutes < 60) return `${minutes} min`;
  const hours = Math.floor(minutes / 60);
  if (hours < 48) return `${hours} h ${minutes % 60} min`;
  return `${Math.floor(hours / 24)} d`;
}

/** "3 running, 1 waiting for a slot, of 2 accounts". */
function activeCounts(runs: SystemOverview["runs"]): string {
  const waiting = runs.filter((r) => r.waiting).length;
  const accounts = new Set(runs.map((r) => r.ownerEmail)).size;
  return `${runs.length - waiting} running, ${waiting} waiting for a slot, of ${accounts} ${accounts === 1 ? "account" : "accounts"}.`;
}

export function ActiveRunsTable({ runs }: { runs: SystemOverview["runs"] }) {
  if (runs.length === 0) return <p className="text-sm text-muted">No runs in progress or waiting.</p>;
  return (
    <>
      <p className="text-sm" data-testid="system-active-counts">
        {activeCounts(runs)}
      </p>
      <DataTable
        label="Runs in progress"
        columns={[{ name: "Owner" }, { name: "Status" }, { name: "Phase" }, { name: "Age", align: "right" }]}
      >
        {runs.map((r) => (
          <tr key={r.id} className="align-top">
            <td className={cell}>{r.ownerEmail ?? "(no account)"}</td>
            <td className={cell}>{r.waiting ? "waiting for a slot" : labelFor(runStatusLabels, r.status)}</td>
            <td className={cell}>{labelFor(runPhaseLabels, r.phase) || "—"}</td>
            <td className={`${cell} whitespace-nowrap text-right`}>{ageText(r.ageSeconds)}</td>
            <td />
          </tr>
        ))}
      </DataTable>
    </>
  );
}

export function FailuresTable({ failures }: { failures: SystemOverview["failures"] }) {
  if (failures.length === 0) return <p className="text-sm text-muted">No failed runs.</p>;
  return (
    <DataTable
      label="Recent failures"
      columns={[{ name: "When" }, { name: "Owner" }, { name: "Phase" }, { name: "Reason" }]}
    >
      {failures.map((f) => (
        <tr key={f.id} className="align-top">
          <td className={`${cell} whitespace-nowrap`}>
            {f.finishedAt ? (
              <time dateTime={f.finishedAt}>{f.finishedAt.slice(0, 16).replace("T", " ")}</time>
            ) : (
              "—"
            )}
          </td>
          <td className={cell}>{f.ownerEmail ?? "(no account)"}</td>
          <td className={cell}>{labelFor(runPhaseLabels, f.phase) || "—"}</td>
          <td className={`${cell} break-words`}>{f.error ?? "(no reason recorded)"}</td>
          <td />
        </tr>
      ))}
    </DataTable>
  );
}

export function ModelErrorsTable({ models }: { models: SystemOverview["models"] }) {
  if (models.length === 0) return <p className="text-sm text-muted">No model calls in the last 30 days.</p>;
  return (
    <DataTable
      label="Model errors by role"
      columns={[
        { name: "Role" },
        { name: "Calls", align: "right" },
        { name: "Retried", align: "right" },
        { name: "Error rate", align: "right" },
        { name: "Causes" },
      ]}
    >
      {models.map((m) => (
        <tr key={m.role}>
          <td className={cell}>{labelFor(modelRoleLabels, m.role)}</td>
          <td className={`${cell} text-right`}>{whole(m.calls)}</td>
          <td className={`${cell} text-right`}>{whole(m.retries)}</td>
          <td className={`${cell} text-right`}>{(m.errorRate * 100).toFixed(1)}%</td>
          <td className={cell}>
            {Object.entries(m.byStatus)
              .map(([status, n]) => `${status === "network" ? "no answer" : `HTTP ${status}`}: ${n}`)
              .join(", ") || "—"}
          </td>
          <td />
        </tr>
      ))}
    </DataTable>
  );
}

export function CostPanel({ overview }: { overview: SystemOverview }) {
  const total = overview.costByDay.reduce((n, d) => n + d.costUsd, 0);
  const { completed, failed, cancelled } = overview.ended;
  return (
    <div className="space-y-3">
      <p className="text-sm">
        Last 30 days, every account: <strong data-testid="system-total-cost">{usd(total)}</strong>; runs
        ended: {completed} completed, {failed} failed, {cancelled} cancelled.
      </p>
      <CostByDayChart
        days={overview.costByDay}
        testId="system-cost-chart"
        label="Chart of the cost per day of every account over the last 30 days"
      />
    </div>
  );
}
