/**
 * A question's usage added to its run's: the answer's calls count in the run's totals, by role and
 * by model, so the usage pages and each person's monthly limits see them.
 */
import type { UsageSnapshot, UsageTotals } from "../../ai/usage.ts";

type Totals = Record<string, number>;

function addTotals(a: Totals | undefined, b: UsageTotals): Totals {
  const out: Totals = { ...(a ?? {}) };
  for (const [k, v] of Object.entries(b)) out[k] = (typeof out[k] === "number" ? out[k] : 0) + v;
  return out;
}

function addEach(a: unknown, b: Record<string, UsageTotals>): Record<string, Totals> {
  const out = { ...((typeof a === "object" && a ? a : {}) as Record<string, Totals>) };
  for (const [k, v] of Object.entries(b)) out[k] = addTotals(out[k], v);
  return out;
}

export function addUsage(run: Record<string, unknown>, question: UsageSnapshot): Record<string, unknown> {
  return {
    ...run,
    total: addTotals(run.total as Totals | undefined, question.total),
    byRole: addEach(run.byRole, question.byRole),
    byModel: addEach(run.byModel, question.byModel),
  };
}
