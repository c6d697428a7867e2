/**
 * Token-limit recovery: when a call fails because its prompt does not fit the model's context
 * window, call again with less material — at most three times — and, when even that fails, hand
 * what fits to a fallback that produces a partial result. Only the cuttable material (e.g. the
 * findings) shrinks; the caller rebuilds the prompt from the kept items, so its system prompt and
 * fixed parts are never truncated. Any other error propagates untouched.
 */

import { detectContextWindowError } from "../../ai/context-errors.ts";
import type { Role } from "../../ai/roles.ts";
import type { EngineDeps } from "../deps.ts";
import { type DirectivePriority, priorityRank } from "../vocabulary.ts";
import {
  builtinContextWindows,
  CHARS_PER_TOKEN,
  type ContextWindowTable,
  contextWindowTokens,
} from "./model-context.ts";

/** A piece of cuttable material, e.g. one directive's findings. */
export interface RecoveryItem {
  text: string;
  priority: DirectivePriority;
  /** Supervision round it came from: older rounds are dropped first among equal priorities. */
  round: number;
  /** Position within the round (directive ordinal): earlier is dropped first. */
  order: number;
}

export interface TokenRecoveryOptions<I extends RecoveryItem, T> {
  /** Names the phase in `token_limit.retry` events. */
  phase: string;
  /** The role whose model's context size sets the budget. */
  role: Role;
  items: readonly I[];
  /** Characters of everything sent that is not cut: system prompt, question, instructions, lists. */
  fixedChars: number;
  call(items: I[]): Promise<T>;
  /** After the last failed retry: a result built from the items of the last attempt (what fit). */
  fallback(items: I[]): Promise<T> | T;
  maxRetries?: number;
  /** Known context sizes; a function is only called when an overflow needs it. */
  contextWindows?: ContextWindowTable | (() => ContextWindowTable);
  /** Tokens kept free for the answer; default a quarter of the window, between 1k and 16k. */
  outputReserveTokens?: number;
}

export interface TokenRecoveryResult<I extends RecoveryItem, T> {
  value: T;
  /** True when the fallback produced the value. */
  partial: boolean;
  retries: number;
  /** The items the value was produced from. */
  items: I[];
}

const SHRINK_PER_RETRY = 0.9;
/** Below this, a truncated item says too little to be worth its header. */
const MIN_PARTIAL_ITEM_CHARS = 400;
export const TRUNCATION_MARK = "\n\n[… cut to fit the model's context window]";

/** Keep order: highest priority first, then newest round, then latest in its round. */
export function keepOrder<I extends RecoveryItem>(items: readonly I[]): I[] {
  return [...items].sort(
    (a, b) => priorityRank(a.priority) - priorityRank(b.priority) || b.round - a.round || b.order - a.order,
  );
}

export const totalChars = (items: readonly RecoveryItem[]): number =>
  items.reduce((n, i) => n + i.text.length, 0);

/**
 * The items that fit `budgetChars`, dropping the lowest-priority/oldest first; the first item that
 * does not fit whole is cut short when enough room is left. Returned in their original order.
 */
export function fitItemsToBudget<I extends RecoveryItem>(items: readonly I[], budgetChars: number): I[] {
  const kept = new Set<I>();
  const cut = new Map<I, I>();
  let left = Math.max(0, Math.floor(budgetChars));
  for (const item of keepOrder(items)) {
    if (item.text.length <= left) {
      kept.add(item);
      left -= item.text.length;
      continue;
    }
    if (left >= MIN_PARTIAL_ITEM_CHARS + TRUNCATION_MARK.length) {
      const text = item.text.slice(0, left - TRUNCATION_MARK.length).replace(/\s+\S*$/, "") + TRUNCATION_MARK;
      cut.set(item, { ...item, text });
    }
    break;
  }
  return items.flatMap((i) => (kept.has(i) ? [i] : cut.has(i) ? [cut.get(i) as I] : []));
}

/** Characters of cuttable material that fit the model's window after the fixed part and the answer. */
export function budgetFromContext(opts: {
  contextTokens: number;
  fixedChars: number;
  outputReserveTokens?: number;
}): number {
  const reserve =
    opts.outputReserveTokens ?? Math.min(16_384, Math.max(1024, Math.floor(opts.contextTokens / 4)));
  return Math.max(0, (opts.contextTokens - reserve) * CHARS_PER_TOKEN - opts.fixedChars);
}

function modelId(deps: EngineDeps, role: Role): string | undefined {
  try {
    return deps.models.registry.spec(role).id;
  } catch {
    return undefined;
  }
}

/**
 * Runs `call` with all items; on a context-window error retries (at most `maxRetries`, default 3)
 * with the items cut to a budget: first derived from the model's context size (the provider's stated
 * limit when the error carries one), then 10% less each time. Each retry emits `token_limit.retry`.
 */
export async function withTokenRecovery<I extends RecoveryItem, T>(
  deps: EngineDeps,
  opts: TokenRecoveryOptions<I, T>,
): Promise<TokenRecoveryResult<I, T>> {
  const maxRetries = opts.maxRetries ?? 3;
  const original = [...opts.items];
  const originalChars = totalChars(original);
  let items = original;
  let budget: number | undefined;
  for (let retry = 0; ; retry++) {
    try {
      return { value: await opts.call(items), partial: false, retries: retry, items };
    } catch (error) {
      const overflow = detectContextWindowError(error);
      if (!overflow || deps.signal.aborted) throw error;
      if (retry >= maxRetries) break;
      const sent = totalChars(items);
      if (budget === undefined) {
        const id = modelId(deps, opts.role);
        const table =
          typeof opts.contextWindows === "function"
            ? opts.contextWindows()
            : (opts.contextWindows ?? builtinContextWindows);
        const contextTokens =
          overflow.limitTokens ?? (id ? contextWindowTokens(id, table) : table.defaultTokens);
        let derived = budgetFromContext({
          contextTokens,
          fixedChars: opts.fixedChars,
          outputReserveTokens: opts.outputReserveTokens,
        });
        // The provider said how far over we were: scale what we sent by the same ratio.
        if (
          overflow.requestedTokens &&
          overflow.limitTokens &&
          overflow.requestedTokens > overflow.limitTokens
        ) {
          derived = Math.min(derived, Math.floor(sent * (overflow.limitTokens / overflow.requestedTokens)));
        }
        // A cut that removes nothing would fail the same way: always shrink.
        budget = Math.min(derived, Math.floor(sent * SHRINK_PER_RETRY));
      } else {
        // Shrink from what was really sent: when whole items were dropped it is already under the
        // budget, and 10% off the budget alone could send the very same prompt again.
        budget = Math.floor(Math.min(budget, totalChars(items)) * SHRINK_PER_RETRY);
      }
      items = fitItemsToBudget(original, budget);
      await deps.events.emit({
        type: "token_limit.retry",
        phase: opts.phase,
        attempt: retry + 1,
        removedChars: originalChars - totalChars(items),
        budgetChars: budget,
      });
    }
  }
  // Retries exhausted: the fallback works from the material of the last attempt.
  return { value: await opts.fallback(items), partial: true, retries: maxRetries, items };
}
