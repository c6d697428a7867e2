import { MockLanguageModelV4 } from "ai/test";
import { describe, expect, it } from "vitest";
import { createModelClient } from "../../ai/client.ts";
import { ContextWindowError } from "../../ai/context-errors.ts";
import { createModelRegistry } from "../../ai/registry.ts";
import { defaultResearchConfig } from "../config.ts";
import type { EngineDeps } from "../deps.ts";
import type { ResearchEvent } from "../events.ts";
import type { RunStore } from "../store.ts";
import { loadContextWindows } from "./model-context.ts";
import {
  budgetFromContext,
  fitItemsToBudget,
  type RecoveryItem,
  TRUNCATION_MARK,
  totalChars,
  withTokenRecovery,
} from "./token-recovery.ts";

function fakeDeps() {
  const events: ResearchEvent[] = [];
  const registry = createModelRegistry({
    env: { MODEL: "mock:tiny" },
    providerFactories: { mock: () => new MockLanguageModelV4() },
  });
  const signal = new AbortController().signal;
  const deps: EngineDeps = {
    models: createModelClient({ registry, signal }),
    search: async () => ({ results: [], errors: [] }),
    fetchDocument: async () => {
      throw new Error("unused");
    },
    store: {} as RunStore,
    events: { emit: async (e) => void events.push(e) },
    clock: { now: () => 0 },
    signal,
    config: defaultResearchConfig,
  };
  return { deps, events };
}

const item = (name: string, chars: number, priority: RecoveryItem["priority"], round = 0, order = 0) => ({
  name,
  text: name.repeat(chars),
  priority,
  round,
  order,
});

const overflow = () => new ContextWindowError({ message: "prompt is too long" });

describe("fitItemsToBudget", () => {
  const items = [
    item("a", 1000, "normal", 0, 1),
    item("b", 1000, "low", 0, 2),
    item("c", 1000, "critical", 1, 3),
    item("d", 1000, "normal", 1, 4),
    item("e", 1000, "high", 0, 5),
  ];

  it("drops the lowest priority first, then older rounds, and keeps the original order", () => {
    expect(fitItemsToBudget(items, 5000).map((i) => i.name)).toEqual(["a", "b", "c", "d", "e"]);
    expect(fitItemsToBudget(items, 4000).map((i) => i.name)).toEqual(["a", "c", "d", "e"]);
    // Among the two normal items, the one from the older round goes first.
    expect(fitItemsToBudget(items, 3000).map((i) => i.name)).toEqual(["c", "d", "e"]);
    expect(fitItemsToBudget(items, 1000).map((i) => i.name)).toEqual(["c"]);
  });

  it("cuts the first item that does not fit when enough room is left, and marks the cut", () => {
    const kept = fitItemsToBudget(items, 3600);
    expect(kept.map((i) => i.name)).toEqual(["a", "c", "d", "e"]);
    const cut = kept.find((i) => i.name === "a");
    expect(cut?.text.endsWith(TRUNCATION_MARK)).toBe(true);
    expect(totalChars(kept)).toBeLessThanOrEqual(3600);
    expect(items[0].text).toHaveLength(1000);
  });
});

describe("budgetFromContext", () => {
  it("leaves room for the answer and the fixed part", () => {
    expect(budgetFromContext({ contextTokens: 32_768, fixedChars: 10_000 })).toBe(
      (32_768 - 8192) * 4 - 10_000,
    );
    expect(budgetFromContext({ contextTokens: 2000, fixedChars: 0 })).toBe((2000 - 1024) * 4);
    expect(budgetFromContext({ contextTokens: 1000, fixedChars: 50_000 })).toBe(0);
  });
});

describe("withTokenRecovery", () => {
  const items = [item("a", 20_000, "low"), item("b", 20_000, "normal"), item("c", 20_000, "critical")];

  it("returns the first answer untouched when it fits", async () => {
    const { deps, events } = fakeDeps();
    const r = await withTokenRecovery(deps, {
      phase: "test",
      role: "synthesis",
      items,
      fixedChars: 100,
      call: async (kept) => kept.length,
      fallback: () => -1,
    });
    expect(r).toMatchObject({ value: 3, partial: false, retries: 0 });
    expect(events).toEqual([]);
  });

  it("cuts to the model's context budget, then 10% less per retry, emitting each retry", async () => {
    const { deps, events } = fakeDeps();
    const sent: number[] = [];
    const r = await withTokenRecovery(deps, {
      phase: "synthesis",
      role: "synthesis",
      items,
      fixedChars: 1000,
      contextWindows: loadContextWindows({ MODEL_CONTEXT_WINDOWS: '{"mock:tiny": 12000}' }),
      call: async (kept) => {
        sent.push(totalChars(kept));
        if (totalChars(kept) > 30_000) throw overflow();
        return kept.map((k) => k.name).join("");
      },
      fallback: () => "fallback",
    });
    const first = (12_000 - 3000) * 4 - 1000; // 35000 chars
    expect(sent[0]).toBe(60_000);
    expect(sent[1]).toBeLessThanOrEqual(first);
    expect(sent[2]).toBeLessThanOrEqual(Math.floor(first * 0.9));
    expect(sent[3]).toBeLessThanOrEqual(Math.floor(Math.floor(first * 0.9) * 0.9));
    expect(sent).toHaveLength(4);
    expect(r.partial).toBe(false);
    expect(r.value).toBe("bc");
    const retries = events.filter((e) => e.type === "token_limit.retry");
    expect(retries.map((e) => e.attempt)).toEqual([1, 2, 3]);
    expect(retries.map((e) => e.budgetChars)).toEqual([
      first,
      Math.floor(first * 0.9),
      Math.floor(Math.floor(first * 0.9) * 0.9),
    ]);
    expect(retries.map((e) => e.removedChars)).toEqual(sent.slice(1).map((s) => 60_000 - s));
    expect(retries.every((e) => e.phase === "synthesis")).toBe(true);
  });

  it("sends less on every retry even when dropping whole items left it under the budget", async () => {
    const { deps } = fakeDeps();
    const sent: number[] = [];
    const small = [
      item("a", 400, "normal", 0, 0),
      item("b", 400, "normal", 0, 1),
      item("c", 400, "low", 0, 2),
    ];
    await withTokenRecovery(deps, {
      phase: "synthesis",
      role: "synthesis",
      items: small,
      fixedChars: 1000,
      // A tiny window: the first budget only fits part of the findings, so items are dropped whole.
      contextWindows: loadContextWindows({ MODEL_CONTEXT_WINDOWS: '{"mock:tiny": 3500}' }),
      call: async (kept) => {
        sent.push(totalChars(kept));
        throw overflow();
      },
      fallback: () => "fallback",
    });
    expect(sent).toHaveLength(4);
    for (let i = 1; i < sent.length; i++) {
      if (sent[i - 1] > 0) expect(sent[i]).toBeLessThan(sent[i - 1]);
    }
  });

  it("uses the limit the provider stated, and always shrinks what it sends", async () => {
    const { deps, events } = fakeDeps();
    const sent: number[] = [];
    await withTokenRecovery(deps, {
      phase: "p",
      role: "synthesis",
      items,
      fixedChars: 0,
      call: async (kept) => {
        sent.push(totalChars(kept));
        if (sent.length === 1) {
          throw new ContextWindowError({ message: "too long", limitTokens: 8192, requestedTokens: 16_000 });
        }
        return "ok";
      },
      fallback: () => "fallback",
    });
    const byTable = (8192 - 2048) * 4;
    const byRatio = Math.floor(60_000 * (8192 / 16_000));
    expect(events[0]).toMatchObject({ type: "token_limit.retry", budgetChars: Math.min(byTable, byRatio) });
    expect(sent[1]).toBeLessThan(sent[0]);
  });

  it("falls back to a partial result after three failed retries", async () => {
    const { deps, events } = fakeDeps();
    let calls = 0;
    let fallbackItems: RecoveryItem[] = [];
    const r = await withTokenRecovery(deps, {
      phase: "p",
      role: "synthesis",
      items,
      fixedChars: 0,
      call: async () => {
        calls++;
        throw overflow();
      },
      fallback: (kept) => {
        fallbackItems = kept;
        return "partial";
      },
    });
    expect(calls).toBe(4);
    expect(r).toMatchObject({ value: "partial", partial: true, retries: 3 });
    // The last attempt's material: 54000, 48600, then 43740 chars of the 60000 (critical kept whole).
    expect(totalChars(fallbackItems)).toBeLessThanOrEqual(43_740);
    expect(fallbackItems.find((i) => i.priority === "critical")?.text).toHaveLength(20_000);
    expect(events.filter((e) => e.type === "token_limit.retry")).toHaveLength(3);
  });

  it("does not treat other errors as token errors", async () => {
    const { deps, events } = fakeDeps();
    let calls = 0;
    await expect(
      withTokenRecovery(deps, {
        phase: "p",
        role: "synthesis",
        items,
        fixedChars: 0,
        call: async () => {
          calls++;
          throw new Error("400 Bad Request: unknown parameter 'temperature'");
        },
        fallback: () => "never",
      }),
    ).rejects.toThrow("unknown parameter");
    expect(calls).toBe(1);
    expect(events).toEqual([]);
  });
});
