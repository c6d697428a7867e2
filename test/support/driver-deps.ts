// Test-only: EngineDeps for tests of the run's driver (lib/research/run.ts) with phases of their
// own: a model client that must not be called, no search results, no fetching, the real clock.
import { createModelClient } from "../../lib/ai/client.ts";
import { createModelRegistry } from "../../lib/ai/registry.ts";
import { defaultResearchConfig, type ResearchConfig } from "../../lib/research/config.ts";
import type { EngineDeps } from "../../lib/research/deps.ts";
import type { EventSink } from "../../lib/research/events.ts";
import type { RunStore } from "../../lib/research/store.ts";
import { scriptedModel } from "./ai-mocks.ts";

export function driverDeps(opts: {
  store: RunStore;
  events: EventSink;
  signal?: AbortSignal;
  /** Built directly, not parsed: a test may use limits below what callers may set (phaseTimeoutMs). */
  settings?: Record<string, unknown>;
}): EngineDeps {
  return {
    models: createModelClient({
      registry: createModelRegistry({
        env: { MODEL: "mock:m" },
        providerFactories: { mock: () => scriptedModel([]) },
      }),
    }),
    search: async () => ({ results: [], errors: [] }),
    fetchDocument: async () => {
      throw new Error("no fetching in this test");
    },
    store: opts.store,
    events: opts.events,
    clock: { now: () => Date.now() },
    signal: opts.signal ?? new AbortController().signal,
    config: { ...defaultResearchConfig, ...opts.settings } as ResearchConfig,
  };
}
