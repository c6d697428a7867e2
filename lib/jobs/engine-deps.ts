/**
 * The engine's dependencies, wired in one place from the real parts: models (with the run's
 * per-role overrides), search (lib/search over the configured providers, the library through the
 * database), safe fetch and extraction, the store, the event sink, the clock, the run's abort
 * signal and its config. The worker (execute-run.ts) and the test harness both build them here,
 * so a test runs the same adapters as production and passes its fakes in through the options.
 */
import type { Db } from "../../db/client.ts";
import { libraryBackend } from "../../db/queries/library.ts";
import { createModelClient } from "../ai/client.ts";
import { createModelRegistry, type ModelRegistry } from "../ai/registry.ts";
import type { UsageMeter } from "../ai/usage.ts";
import { parseAllowedHosts } from "../fetch/allowed-hosts.ts";
import { fetchDocumentIsolated, parseLimitsFromEnv } from "../fetch/isolated-extract.ts";
import type { EventOf, EventSink, RunStore } from "../research/index.ts";
import {
  type Clock,
  type EngineDeps,
  type ResearchConfig,
  resolveResearchConfig,
  systemClock,
} from "../research/index.ts";
import { createSearch, type FetchLike, type Search } from "../search/index.ts";
import { log } from "../telemetry/log.ts";
import { quotasFromEnv, withSourceTextQuota } from "./quotas.ts";

export interface EngineDepsOptions {
  db: Db;
  /** The run: whose library is searched; its settings give the config and the model overrides. */
  run: { ownerId: string; settings: Record<string, unknown> };
  store: RunStore;
  events: EventSink;
  /** The run's abort signal (cancellation, time limit, worker shutdown). */
  signal: AbortSignal;
  /** Aborted when the owner asks for the report now (EngineDeps.gatherSignal). */
  gatherSignal?: AbortSignal;
  /** Where search providers (SEARCH_PROVIDERS, API keys) and fetching (ALLOWED_HOSTS) are configured. */
  env: Record<string, string | undefined>;
  /** The model registry before the run's per-role overrides. */
  registry: ModelRegistry;
  /** Counts usage against the run's budget. */
  meter?: UsageMeter;
  /** Defaults to the run's settings resolved against the engine's defaults. */
  config?: ResearchConfig;
  clock?: Clock;
  /** The HTTP fetch of the web search providers (tests point it at local fakes). */
  searchFetch?: FetchLike;
  /** Replaces lib/fetch's safe fetch and extraction (tests without network). */
  fetchDocument?: EngineDeps["fetchDocument"];
}

const registries = new WeakMap<object, ModelRegistry>();

/**
 * The process's model registry for `env` (process.env for the worker): created once and shared by
 * every run the process executes, so its per-provider limiters make MODEL_MAX_CONCURRENCY a limit
 * on the process's calls, not on each run's. A run adds its own model choices with
 * withOverrides, which keeps the shared limiters. A configuration error is thrown (not kept), so
 * a corrected environment is read again by the next run.
 */
export function processModelRegistry(env: Record<string, string | undefined>): ModelRegistry {
  let registry = registries.get(env);
  if (!registry) {
    registry = createModelRegistry({ env });
    registries.set(env, registry);
  }
  return registry;
}

export function createEngineDeps(o: EngineDepsOptions): EngineDeps {
  const config = o.config ?? resolveResearchConfig(o.run.settings);
  const search = createSearch({
    env: o.env,
    library: libraryBackend(o.db),
    ownerId: o.run.ownerId,
    providers: config.searchProviders,
    fetch: o.searchFetch,
  });
  const allowedHosts = parseAllowedHosts(o.env);
  // Pages are parsed in a worker thread with the same caps as library documents: a huge PDF a
  // researcher reads must not stall the streams of the process the run shares with the web server.
  const parseLimits = parseLimitsFromEnv(o.env);
  const overrides = (o.run.settings.models ?? undefined) as Record<string, string> | undefined;
  return {
    models: createModelClient({
      registry: o.registry.withOverrides(overrides),
      meter: o.meter,
      signal: o.signal,
      onRetry: (r) => {
        const status = (r.error as { statusCode?: number })?.statusCode;
        emitBeside(o.events, {
          type: "model.retry",
          role: r.role,
          attempt: r.attempt,
          status,
          delayMs: r.delayMs,
        });
      },
      onFailover: (f) => emitBeside(o.events, { type: "model.failover", ...f }),
    }),
    search: engineSearch(search, o.signal),
    fetchDocument:
      o.fetchDocument ??
      ((url, f) => fetchDocumentIsolated(url, parseLimits, { allowedHosts, signal: f.signal ?? o.signal })),
    // Page text counts against the owner's QUOTA_SOURCE_TEXT_MB: past it, the run stops (quotas.ts).
    store: withSourceTextQuota(o.store, {
      db: o.db,
      ownerId: o.run.ownerId,
      limitBytes: quotasFromEnv(o.env).sourceText,
    }),
    events: o.events,
    clock: o.clock ?? systemClock,
    signal: o.signal,
    gatherSignal: o.gatherSignal,
    config,
  };
}

/**
 * An event about a model call, emitted while the call goes ahead (not awaited), so its failure is
 * caught here: an unhandled rejection would end a standalone worker. A lost event is only logged.
 */
function emitBeside(events: EventSink, event: EventOf<"model.retry" | "model.failover">): void {
  events.emit(event).catch((e) => log("engine").error({ err: e }, `could not record a ${event.type} event`));
}

/** lib/search's answer in the engine's shape: every hit with a snippet, provider errors as text. */
function engineSearch(search: Search, runSignal: AbortSignal): EngineDeps["search"] {
  return async (query, o) => {
    const r = await search.search(query, { maxResults: o.maxResults, signal: o.signal ?? runSignal });
    return {
      results: r.results.map((x) => ({ ...x, snippet: x.snippet ?? "" })),
      errors: r.errors.map((e) => ({ provider: e.provider, message: e.message })),
    };
  };
}
