/** The person's own usage on the account page: a cost-per-day chart, and the numbers in tables. */
import { useTranslations } from "next-intl";
import type { UsageReport } from "@/lib/server/accounts/usage";
import { DataTable } from "../data-table";
import { useModelRoleName } from "./model-role";
import { useMoney } from "./money";
import { CostByDayChart } from "./usage-chart";

export function UsagePanel({ usage }: { usage: UsageReport }) {
  const t = useTranslations("account.usage");
  const roleName = useModelRoleName();
  const { usd, whole } = useMoney();
  const { total } = usage;
  const activeDays = usage.days.filter((d) => d.runs > 0).reverse();
  // Models without a price count as $0: with nothing priced, the cost is unknown and a chart would be empty.
  const priced = usage.days.some((d) => d.costUsd > 0);
  const cost = (c: number) => (priced ? usd(c) : total.calls > 0 ? t("costUnknown") : usd(c));
  return (
    <div className="space-y-4" data-testid="usage-panel">
      <p className="text-sm">
        {t.rich("summary", {
          cost: cost(total.costUsd),
          strong: (chunks) => <strong data-testid="usage-total-cost">{chunks}</strong>,
          runs: total.runs,
          calls: total.calls,
          tokens: total.tokens,
        })}
      </p>
      {priced && <CostByDayChart days={usage.days} testId="usage-chart" label={t("chart")} />}
      <h3 className="text-sm font-medium">{t("byRole")}</h3>
      {usage.byRole.length === 0 ? (
        <p className="text-sm text-muted">{t("noCalls")}</p>
      ) : (
        <DataTable
          label={t("byRoleTable")}
          columns={[
            { name: t("role") },
            { name: t("calls"), align: "right" },
            { name: t("tokens"), align: "right" },
            { name: t("cost"), align: "right" },
          ]}
        >
          {usage.byRole.map((r) => (
            <tr key={r.role}>
              <td className="px-3 py-2">{roleName(r.role)}</td>
              <td className="px-3 py-2 text-right">{whole(r.calls)}</td>
              <td className="px-3 py-2 text-right">{whole(r.tokens)}</td>
              <td className="px-3 py-2 text-right">{usd(r.costUsd)}</td>
              <td />
            </tr>
          ))}
        </DataTable>
      )}
      <h3 className="text-sm font-medium">{t("byDay")}</h3>
      {activeDays.length === 0 ? (
        <p className="text-sm text-muted">{t("noRuns")}</p>
      ) : (
        <DataTable
          label={t("byDayTable")}
          columns={[
            { name: t("day") },
            { name: t("runs"), align: "right" },
            { name: t("calls"), align: "right" },
            { name: t("tokens"), align: "right" },
            { name: t("cost"), align: "right" },
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
