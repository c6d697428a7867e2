/** The person's own usage on the account page: a cost-per-day chart, and the numbers in tables. */
import type { UsageReport } from "@/lib/server/accounts/usage";
import { DataTable } from "../data-table";
import { labelFor, modelRoleLabels } from "../labels";
import { CostByDayChart } from "./usage-chart";

export const usd = (n: number) => (n > 0 && n < 0.01 ? `$${n.toFixed(4)}` : `$${n.toFixed(2)}`);
export const whole = (n: number) => Math.round(n).toLocaleString("en-US");

export function UsagePanel({ usage }: { usage: UsageReport }) {
  const { total } = usage;
  const activeDays = usage.days.filter((d) => d.runs > 0).reverse();
  // Models without a price count as $0: with nothing priced, the cost is unknown and a chart would be empty.
  const priced = usage.days.some((d) => d.costUsd > 0);
  const cost = (c: number) =>
    priced ? usd(c) : total.calls > 0 ? "cost unknown — set MODEL_PRICING" : usd(c);
  return (
    <div className="space-y-4" data-testid="usage-panel">
      <p className="text-sm">
        Last 30 days: <strong data-testid="usage-total-cost">{cost(total.costUsd)}</strong> for{" "}
        {whole(total.runs)} run{total.runs === 1 ? "" : "s"}, {whole(total.calls)} model calls and{" "}
        {whole(total.tokens)} tokens. Runs count on the day they were started (UTC).
      </p>
      {priced && (
        <CostByDayChart
          days={usage.days}
          testId="usage-chart"
          label="Chart of your cost per day over the last 30 days; the tables below have the numbers"
        />
      )}
      <h3 className="text-sm font-medium">By role</h3>
      {usage.byRole.length === 0 ? (
        <p className="text-sm text-muted">No model calls in the last 30 days.</p>
      ) : (
        <DataTable
          label="Usage by role"
          columns={[
            { name: "Role" },
            { name: "Calls", align: "right" },
            { name: "Tokens", align: "right" },
            { name: "Cost", align: "right" },
          ]}
        >
          {usage.byRole.map((r) => (
            <tr key={r.role}>
              <td className="px-3 py-2">{labelFor(modelRoleLabels, r.role)}</td>
              <td className="px-3 py-2 text-right">{whole(r.calls)}</td>
              <td className="px-3 py-2 text-right">{whole(r.tokens)}</td>
              <td className="px-3 py-2 text-right">{usd(r.costUsd)}</td>
              <td />
            </tr>
          ))}
        </DataTable>
      )}
      <h3 className="text-sm font-medium">By day</h3>
      {activeDays.length === 0 ? (
        <p className="text-sm text-muted">No runs in the last 30 days.</p>
      ) : (
        <DataTable
          label="Usage by day"
          columns={[
            { name: "Day (UTC)" },
            { name: "Runs", align: "right" },
            { name: "Calls", align: "right" },
            { name: "Tokens", align: "right" },
            { name: "Cost", align: "right" },
          ]}
        >
          {activeDays.map((d) => (
            <tr key={d.day}>
              <td className="px-3 py-2">{d.day}</td>
              <td className="px-3 py-2 text-right">{whole(d.runs)}</td>
              <td className="px-3 py-2 text-right">{whole(d.calls)}</td>
              <td className="px-3 py-2 text-right">{whole(d.tokens)}</td>
              <td className="px-3 py-2 text-right">{usd(d.costUsd)}</td>
              <td />
            </tr>
          ))}
        </DataTable>
      )}
    </div>
  );
}
