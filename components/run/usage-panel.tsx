"use client";

import { useFormatter, useTranslations } from "next-intl";
import type { UsageSnapshot, UsageTotals } from "@/lib/ai/usage";
import { roleLabel } from "./activity-labels";
import type { RunViewJson } from "./types";

const n = (x: unknown) => (typeof x === "number" && Number.isFinite(x) ? x : 0);

/** Token counts and dollar costs in the page's locale ("1,234" / "1.234"; "$0.0123" / "0,0123 $"). */
function useNumbers() {
  const format = useFormatter();
  return {
    tokens: (x: number) => format.number(x),
    dollars: (x: number) => {
      const digits = x < 0.01 && x > 0 ? 4 : 2;
      return format.number(x, {
        style: "currency",
        currency: "USD",
        minimumFractionDigits: digits,
        maximumFractionDigits: digits,
      });
    },
  };
}

/** The run's stored usage snapshot, read defensively (an old run may lack fields or be empty). */
export function readUsage(usage: RunViewJson["usage"]): UsageSnapshot | null {
  const u = usage as Partial<UsageSnapshot> | null;
  if (!u?.total) return null;
  return { total: u.total, byRole: u.byRole ?? {}, byModel: u.byModel ?? {} };
}

const noUsage = { calls: 0, inputTokens: 0, outputTokens: 0, costUsd: 0 } as UsageTotals;

/** Usage per model: every model that was called, then the run's other chain members with none. */
export function modelUsage(usage: UsageSnapshot, models: unknown): [string, UsageTotals][] {
  const listed = Object.values((models ?? {}) as Record<string, unknown>).flatMap((v) =>
    typeof v === "string" ? v.split(",").map((m) => m.trim()) : [],
  );
  const called = Object.entries(usage.byModel).sort(([, a], [, b]) => n(b.calls) - n(a.calls));
  const idle = [...new Set(listed)].filter((m) => m && !(m in usage.byModel));
  return [...called, ...idle.map((m): [string, UsageTotals] => [m, noUsage])];
}

/** Tokens in and out, calls and cost, for the run, for each model role and for each model, in words and numbers. */
export function UsagePanel({ run }: { run: RunViewJson }) {
  const words = useTranslations("usage");
  const all = useTranslations();
  const own = useTranslations("run.usage");
  const { tokens, dollars } = useNumbers();
  const usage = readUsage(run.usage);
  if (!usage) {
    return (
      <section aria-label={own("title")} className="text-sm">
        <h2 className="font-medium">{own("title")}</h2>
        <p className="text-muted">{own("none")}</p>
      </section>
    );
  }
  const t = usage.total;
  // A model without a price counts as $0: say the cost is unknown rather than print "$0.00".
  const cost = !n(t.unpricedCalls)
    ? words("costAbout", { cost: dollars(n(t.costUsd)) })
    : n(t.unpricedCalls) >= n(t.calls)
      ? words("costNone")
      : words("costAtLeast", { cost: dollars(n(t.costUsd)), unpriced: n(t.unpricedCalls) });
  const roles = Object.entries(usage.byRole).sort(([, a], [, b]) => n(b.costUsd) - n(a.costUsd));
  // Per model: the calls each model of the run's chains answered, none for a model that never did
  // (a run that switched away from its first model shows it with no calls).
  const byModel = modelUsage(usage, run.settings?.models);
  // The models the run was created with (chains shown as first → next), when it recorded them.
  const models = (run.settings?.models ?? {}) as Record<string, string | undefined>;
  const showModels = roles.some(([role]) => models[role]);
  return (
    <section aria-label={own("title")} className="space-y-3 text-sm">
      <h2 className="font-medium">{own("title")}</h2>
      <p data-testid="usage-summary">
        {words("summary", {
          calls: n(t.calls),
          input: tokens(n(t.inputTokens)),
          output: tokens(n(t.outputTokens)),
          cost,
        })}
      </p>
      {roles.length > 0 && (
        <UsageTable
          caption={own("byRole")}
          testId="usage-by-role"
          head={showModels ? [own("work"), own("model")] : [own("work")]}
          rows={roles.map(([role, totals]) => ({
            key: role,
            label: roleLabel(all, role),
            cells: showModels ? [models[role]?.split(",").join(" → ") ?? own("serverDefault")] : [],
            totals,
          }))}
        />
      )}
      {byModel.length > 0 && (
        <UsageTable
          caption={own("byModel")}
          testId="usage-by-model"
          showCaption
          head={[own("model")]}
          rows={byModel.map(([model, totals]) => ({ key: model, label: model, mono: true, totals }))}
        />
      )}
    </section>
  );
}

type UsageRow = { key: string; label: string; mono?: boolean; cells?: string[]; totals: UsageTotals };

/** One row per role or model: its label (and further cells), then calls, tokens in and out, cost. */
function UsageTable({
  caption,
  testId,
  showCaption,
  head,
  rows,
}: {
  caption: string;
  testId: string;
  showCaption?: boolean;
  head: string[];
  rows: UsageRow[];
}) {
  const t = useTranslations("run.usage");
  const { tokens } = useNumbers();
  return (
    <div className="overflow-x-auto">
      <table className="w-full border-collapse text-left text-xs" data-testid={testId}>
        <caption className={showCaption ? "text-left text-sm font-medium" : "sr-only"}>{caption}</caption>
        <thead>
          <tr className="border-b border-zinc-200 dark:border-zinc-800">
            {[...head, t("calls"), t("tokensIn"), t("tokensOut")].map((h) => (
              <th key={h} className="py-1 pr-2">
                {h}
              </th>
            ))}
            <th className="py-1">{t("cost")}</th>
          </tr>
        </thead>
        <tbody>
          {rows.map((r) => (
            <tr
              key={r.key}
              className="border-b border-zinc-100 dark:border-zinc-900"
              data-key={r.key}
              data-calls={n(r.totals.calls)}
            >
              <th scope="row" className={`py-1 pr-2 font-normal ${r.mono ? "font-mono" : ""}`}>
                {r.label}
              </th>
              {r.cells?.map((c) => (
                <td key={c} className="py-1 pr-2 font-mono">
                  {c}
                </td>
              ))}
              <td className="py-1 pr-2">{tokens(n(r.totals.calls))}</td>
              <td className="py-1 pr-2">{tokens(n(r.totals.inputTokens))}</td>
              <td className="py-1 pr-2">{tokens(n(r.totals.outputTokens))}</td>
              <td className="py-1">
                <RowCost totals={r.totals} />
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

/** A row's cost; "unknown" when every call of it used a model without a price. */
function RowCost({ totals }: { totals: UsageTotals }) {
  const words = useTranslations("usage");
  const { dollars } = useNumbers();
  const unknown = n(totals.calls) > 0 && n(totals.unpricedCalls) >= n(totals.calls);
  return <>{unknown ? words("rowUnknown") : dollars(n(totals.costUsd))}</>;
}
