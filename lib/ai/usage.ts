import type { LanguageModelUsage } from "ai";
import { costOf, findPrice, type PricingTable } from "./pricing.ts";
import type { ModelSpec } from "./spec.ts";

export type TokenUsage = {
  inputTokens: number;
  outputTokens: number;
  /** Part of inputTokens read from the provider's prompt cache (cheaper where priced). */
  cachedInputTokens: number;
  /** Part of outputTokens spent on reasoning. */
  reasoningTokens: number;
};

export type UsageTotals = TokenUsage & {
  totalTokens: number;
  calls: number;
  costUsd: number;
  /** Calls whose model has no price: their cost counts as 0, so the cost is a lower bound. */
  unpricedCalls: number;
  /** Tokens of those calls: what a cost budget cannot see, so they have a ceiling of their own. */
  unpricedTokens: number;
};

/** JSON-safe; stored on the run so a resumed run keeps counting from where it was. */
export type UsageSnapshot = {
  total: UsageTotals;
  byRole: Record<string, UsageTotals>;
  byModel: Record<string, UsageTotals>;
};

/**
 * A per-run limit. Reaching any limit stops further calls. `maxUnpricedTokens` is the server's
 * ceiling for models without a price, whose cost a `maxCostUsd` budget would never see grow.
 */
export type Budget = { maxTokens?: number; maxCostUsd?: number; maxUnpricedTokens?: number };

export type UsageRecord = {
  role: string;
  model: string;
  usage: TokenUsage;
  costUsd: number;
  priced: boolean;
  total: UsageTotals;
};

export type BudgetLimit = "tokens" | "cost" | "unpriced_tokens";

export class BudgetExceededError extends Error {
  readonly limit: BudgetLimit;
  readonly max: number;
  readonly used: number;
  readonly role: string | undefined;

  constructor(opts: { limit: BudgetLimit; max: number; used: number; role?: string }) {
    const what =
      opts.limit === "tokens"
        ? `${opts.used} tokens used of a ${opts.max}-token budget`
        : opts.limit === "unpriced_tokens"
          ? `${opts.used} tokens of models without a price used of the server's ${opts.max}-token ceiling`
          : `$${opts.used.toFixed(4)} spent of a $${opts.max} budget`;
    super(`run budget exhausted: ${what}${opts.role ? ` (before a ${opts.role} call)` : ""}`);
    this.name = "BudgetExceededError";
    this.limit = opts.limit;
    this.max = opts.max;
    this.used = opts.used;
    this.role = opts.role;
  }
}

export function toTokenUsage(u: LanguageModelUsage | undefined): TokenUsage {
  return {
    inputTokens: u?.inputTokens ?? 0,
    outputTokens: u?.outputTokens ?? 0,
    cachedInputTokens: u?.inputTokenDetails?.cacheReadTokens ?? 0,
    reasoningTokens: u?.outputTokenDetails?.reasoningTokens ?? 0,
  };
}

export function emptyTotals(): UsageTotals {
  return {
    inputTokens: 0,
    outputTokens: 0,
    cachedInputTokens: 0,
    reasoningTokens: 0,
    totalTokens: 0,
    calls: 0,
    costUsd: 0,
    unpricedCalls: 0,
    unpricedTokens: 0,
  };
}

function add(t: UsageTotals, u: TokenUsage, costUsd: number, priced: boolean): void {
  t.inputTokens += u.inputTokens;
  t.outputTokens += u.outputTokens;
  t.cachedInputTokens += u.cachedInputTokens;
  t.reasoningTokens += u.reasoningTokens;
  t.totalTokens += u.inputTokens + u.outputTokens;
  t.calls += 1;
  t.costUsd += costUsd;
  if (!priced) {
    t.unpricedCalls += 1;
    t.unpricedTokens += u.inputTokens + u.outputTokens;
  }
}

/**
 * Token and cost accounting for one run, per role and per model, with an optional budget.
 * The budget is checked before each call (the call layer does it): a call already paid for
 * is never thrown away, the run just makes no further calls once over.
 */
export class UsageMeter {
  readonly pricing: PricingTable;
  budget: Budget;
  #total: UsageTotals;
  #byRole: Map<string, UsageTotals>;
  #byModel: Map<string, UsageTotals>;
  #listeners: Array<(r: UsageRecord) => void> = [];

  constructor(opts: { pricing?: PricingTable; budget?: Budget; initial?: UsageSnapshot } = {}) {
    this.pricing = opts.pricing ?? {};
    this.budget = opts.budget ?? {};
    this.#total = { ...emptyTotals(), ...opts.initial?.total };
    // Over the empty totals: a snapshot stored before a field existed counts it from zero.
    const restore = (m: Record<string, UsageTotals> | undefined) =>
      new Map(Object.entries(m ?? {}).map(([k, v]) => [k, { ...emptyTotals(), ...v }]));
    this.#byRole = restore(opts.initial?.byRole);
    this.#byModel = restore(opts.initial?.byModel);
  }

  /** Called after every recorded call (persist the snapshot, emit a usage event, …). */
  onRecord(listener: (r: UsageRecord) => void): () => void {
    this.#listeners.push(listener);
    return () => {
      this.#listeners = this.#listeners.filter((l) => l !== listener);
    };
  }

  record(role: string, spec: ModelSpec, usage: TokenUsage): UsageRecord {
    const price = findPrice(this.pricing, spec);
    const costUsd = price ? costOf(price, usage) : 0;
    const priced = price !== undefined;
    add(this.#total, usage, costUsd, priced);
    for (const [map, key] of [
      [this.#byRole, role],
      [this.#byModel, spec.id],
    ] as const) {
      let t = map.get(key);
      if (!t) {
        t = emptyTotals();
        map.set(key, t);
      }
      add(t, usage, costUsd, priced);
    }
    const record: UsageRecord = { role, model: spec.id, usage, costUsd, priced, total: { ...this.#total } };
    for (const l of this.#listeners) l(record);
    return record;
  }

  get total(): UsageTotals {
    return { ...this.#total };
  }

  role(role: string): UsageTotals {
    return { ...(this.#byRole.get(role) ?? emptyTotals()) };
  }

  snapshot(): UsageSnapshot {
    const copy = (m: Map<string, UsageTotals>) => Object.fromEntries([...m].map(([k, v]) => [k, { ...v }]));
    return { total: { ...this.#total }, byRole: copy(this.#byRole), byModel: copy(this.#byModel) };
  }

  /** The budget error that applies now, if any (for a graceful stop without throwing). */
  overBudget(role?: string): BudgetExceededError | undefined {
    const { maxTokens, maxCostUsd, maxUnpricedTokens } = this.budget;
    if (maxTokens !== undefined && this.#total.totalTokens >= maxTokens) {
      return new BudgetExceededError({
        limit: "tokens",
        max: maxTokens,
        used: this.#total.totalTokens,
        role,
      });
    }
    if (maxCostUsd !== undefined && this.#total.costUsd >= maxCostUsd) {
      return new BudgetExceededError({ limit: "cost", max: maxCostUsd, used: this.#total.costUsd, role });
    }
    if (maxUnpricedTokens !== undefined && this.#total.unpricedTokens >= maxUnpricedTokens) {
      return new BudgetExceededError({
        limit: "unpriced_tokens",
        max: maxUnpricedTokens,
        used: this.#total.unpricedTokens,
        role,
      });
    }
    return undefined;
  }

  assertWithinBudget(role?: string): void {
    const err = this.overBudget(role);
    if (err) throw err;
  }
}
