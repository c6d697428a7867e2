import type { UsageSnapshot, UsageTotals } from "@/lib/ai/usage";
import { roleLabel } from "./activity-labels";
import type { RunViewJson } from "./types";

const n = (x: unknown) => (typeof x === "number" && Number.isFinite(x) ? x : 0);
const tokens = (x: number) => x.toLocaleString("en-US");
const dollars = (x: number) => `$${x < 0.01 && x > 0 ? x.toFixed(4) : x.toFixed(2)}`;

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
  const usage = readUsage(run.usage);
  if (!usage) {
    return (
      <section aria-label="Usage" className="text-sm">
        <h2 className="font-medium">Usage</h2>
        <p className="text-muted">No model calls recorded yet.</p>
      </section>
    );
  }
  const t = usage.total;
  const roles = Object.entries(usage.byRole).sort(([, a], [, b]) => n(b.costUsd) - n(a.costUsd));
  // Per model: the calls each model of the run's chains answered, none for a model that never did
  // (a run that switched away from its first model shows it with no calls).
  const byModel = modelUsage(usage, run.settings?.models);
  // The models the run was created with (chains shown as first → next), when it recorded them.
  const models = (run.settings?.models ?? {}) as Record<string, string | undefined>;
  const showModels = roles.some(([role]) => models[role]);
  return (
    <section aria-label="Usage" className="space-y-3 text-sm">
      <h2 className="font-medium">Usage</h2>
      <p data-testid="usage-summary">
        {tokens(n(t.calls))} model calls read {tokens(n(t.inputTokens))} tokens and wrote{" "}
        {tokens(n(t.outputTokens))}, costing about {dollars(n(t.costUsd))}
        {n(t.unpricedCalls) ? ` (at least: ${n(t.unpricedCalls)} calls used models without a price)` : ""}.
      </p>
      {roles.length > 0 && (
        <div className="overflow-x-auto">
          <table className="w-full border-collapse text-left text-xs">
            <caption className="sr-only">Usage by role</caption>
            <thead>
              <tr className="border-b border-zinc-200 dark:border-zinc-800">
                <th className="py-1 pr-2">Work</th>
                {showModels && <th className="py-1 pr-2">Model</th>}
                <th className="py-1 pr-2">Calls</th>
                <th className="py-1 pr-2">Tokens in</th>
                <th className="py-1 pr-2">Tokens out</th>
                <th className="py-1">Cost</th>
              </tr>
            </thead>
            <tbody>
              {roles.map(([role, r]: [string, UsageTotals]) => (
                <tr key={role} className="border-b border-zinc-100 dark:border-zinc-900">
                  <th scope="row" className="py-1 pr-2 font-normal">
                    {roleLabel(role)}
                  </th>
                  {showModels && (
                    <td className="py-1 pr-2 font-mono">
                      {models[role]?.split(",").join(" → ") ?? "server default"}
                    </td>
                  )}
                  <td className="py-1 pr-2">{tokens(n(r.calls))}</td>
                  <td className="py-1 pr-2">{tokens(n(r.inputTokens))}</td>
                  <td className="py-1 pr-2">{tokens(n(r.outputTokens))}</td>
                  <td className="py-1">{dollars(n(r.costUsd))}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      {byModel.length > 0 && (
        <div className="overflow-x-auto">
          <table className="w-full border-collapse text-left text-xs">
            <caption className="text-left text-sm font-medium">Usage by model</caption>
            <thead>
              <tr className="border-b border-zinc-200 dark:border-zinc-800">
                <th className="py-1 pr-2">Model</th>
                <th className="py-1 pr-2">Calls</th>
                <th className="py-1 pr-2">Tokens in</th>
                <th className="py-1 pr-2">Tokens out</th>
                <th className="py-1">Cost</th>
              </tr>
            </thead>
            <tbody>
              {byModel.map(([model, m]: [string, UsageTotals]) => (
                <tr
                  key={model}
                  className="border-b border-zinc-100 dark:border-zinc-900"
                  data-testid="usage-by-model"
                  data-model={model}
                  data-calls={n(m.calls)}
                >
                  <th scope="row" className="py-1 pr-2 font-mono font-normal">
                    {model}
                  </th>
                  <td className="py-1 pr-2">{tokens(n(m.calls))}</td>
                  <td className="py-1 pr-2">{tokens(n(m.inputTokens))}</td>
                  <td className="py-1 pr-2">{tokens(n(m.outputTokens))}</td>
                  <td className="py-1">{dollars(n(m.costUsd))}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </section>
  );
}
