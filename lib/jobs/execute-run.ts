/**
 * Runs one research run inside a worker: wires the real dependencies (models, search, safe fetch,
 * the database store, the event sink) for the engine, and turns cancellation, the run's time limit
 * and worker shutdown into the abort reasons the orchestrator understands.
 */
import type { DatabaseHandle } from "../../db/client.ts";
import { getRun, isRunCancelRequested, markRunStarted } from "../../db/queries/runs.ts";
import { createDbRunStore } from "../../db/research-store.ts";
import { createModelClient } from "../ai/client.ts";
import { createModelRegistry, type ModelRegistry } from "../ai/registry.ts";
import { UsageMeter, type UsageSnapshot } from "../ai/usage.ts";
import { parseAllowedHosts } from "../fetch/allowed-hosts.ts";
import { fetchDocument } from "../fetch/extract.ts";
import { resolveResearchConfig } from "../research/config.ts";
import { type EngineDeps, systemClock } from "../research/deps.ts";
import { defaultPhases } from "../research/phases/index.ts";
import { type RunAbortReason, type RunOutcome, runResearch } from "../research/run.ts";
import { createSearch } from "../search/index.ts";
import type { RunBus } from "./bus.ts";
import { createRunEventSink } from "./event-sink.ts";

export interface ExecuteRunOptions {
  handle: DatabaseHandle;
  bus: RunBus;
  runId: string;
  /** Aborted by the worker when it stops, or by the queue when this worker lost the job. */
  workerSignal: AbortSignal;
  env?: Record<string, string | undefined>;
  registry?: ModelRegistry;
  /** How often the run row is checked for a cancel request (the bus usually delivers it first). */
  cancelPollMs?: number;
}

export async function executeRun(opts: ExecuteRunOptions): Promise<RunOutcome> {
  const { handle, bus, runId } = opts;
  const db = handle.db;
  const env = opts.env ?? process.env;
  const run = await getRun(db, runId);
  if (!run) throw new Error(`run ${runId} does not exist`);

  const controller = new AbortController();
  const abort = (reason: RunAbortReason) => {
    if (!controller.signal.aborted) controller.abort(reason);
  };
  const cleanups: (() => void)[] = [];
  const onWorkerAbort = () => abort({ kind: "shutdown" });
  if (opts.workerSignal.aborted) onWorkerAbort();
  opts.workerSignal.addEventListener("abort", onWorkerAbort, { once: true });
  cleanups.push(() => opts.workerSignal.removeEventListener("abort", onWorkerAbort));
  cleanups.push(
    bus.subscribe(runId, (m) => {
      if (m.kind === "cancel") abort({ kind: "cancelled", by: "the user" });
    }),
  );
  const poll = setInterval(async () => {
    try {
      if (await isRunCancelRequested(db, runId)) abort({ kind: "cancelled", by: "the user" });
    } catch {
      // a failed poll is retried on the next tick; the bus is the primary path
    }
  }, opts.cancelPollMs ?? 1000);
  cleanups.push(() => clearInterval(poll));
  if (run.cancelRequestedAt) abort({ kind: "cancelled", by: "the user" });

  const config = resolveResearchConfig(run.settings);
  const startedAt = run.startedAt ?? (await markRunStarted(db, runId, new Date()));
  const remaining = config.runTimeoutMs - (Date.now() - startedAt.getTime());
  const timer = setTimeout(
    () => abort({ kind: "timeout", limitMs: config.runTimeoutMs }),
    Math.max(0, remaining),
  );
  cleanups.push(() => clearTimeout(timer));

  const store = createDbRunStore(db, runId);
  const events = createRunEventSink(db, bus, runId);
  const baseRegistry = opts.registry ?? createModelRegistry({ env });
  const modelOverrides = (run.settings.models ?? undefined) as Record<string, string> | undefined;
  const registry = baseRegistry.withOverrides(modelOverrides);
  const budget = (run.settings.budget ?? {}) as { maxTokens?: number; maxCostUsd?: number };
  const meter = new UsageMeter({
    pricing: registry.pricing,
    budget,
    initial: isUsageSnapshot(run.usage) ? run.usage : undefined,
  });
  cleanups.push(trackUsage(meter, store, events));

  const search = createSearch({ env, db, ownerId: run.ownerId, providers: config.searchProviders });
  const allowedHosts = parseAllowedHosts(env);
  const deps: EngineDeps = {
    models: createModelClient({
      registry,
      meter,
      signal: controller.signal,
      onRetry: (r) => {
        const status = (r.error as { statusCode?: number })?.statusCode;
        void events.emit({
          type: "model.retry",
          role: r.role,
          attempt: r.attempt,
          status,
          delayMs: r.delayMs,
        });
      },
    }),
    search: async (query, o) => {
      const r = await search.search(query, {
        maxResults: o.maxResults,
        signal: o.signal ?? controller.signal,
      });
      return {
        results: r.results.map((x) => ({ ...x, snippet: x.snippet ?? "" })),
        errors: r.errors.map((e) => ({ provider: e.provider, message: e.message })),
      };
    },
    fetchDocument: (url, o) => fetchDocument(url, { allowedHosts, signal: o.signal ?? controller.signal }),
    store,
    events,
    clock: systemClock,
    signal: controller.signal,
    config,
  };
  try {
    return await runResearch(deps, defaultPhases);
  } finally {
    for (const c of cleanups) c();
    await store.saveUsage(meter.snapshot() as unknown as Record<string, unknown>);
  }
}

function isUsageSnapshot(u: unknown): u is UsageSnapshot {
  return typeof u === "object" && u !== null && "total" in u && "byRole" in u;
}

/** Persists usage after each model call and emits at most one usage event every 2 s. */
function trackUsage(meter: UsageMeter, store: EngineDeps["store"], events: EngineDeps["events"]): () => void {
  let lastEmit = 0;
  let saving = Promise.resolve();
  return meter.onRecord(() => {
    const snap = meter.snapshot();
    saving = saving.then(() => store.saveUsage(snap as unknown as Record<string, unknown>)).catch(() => {});
    if (Date.now() - lastEmit > 2000) {
      lastEmit = Date.now();
      const t = snap.total;
      void events
        .emit({
          type: "usage.updated",
          inputTokens: t.inputTokens,
          outputTokens: t.outputTokens,
          cost: t.costUsd,
        })
        .catch(() => {});
    }
  });
}
