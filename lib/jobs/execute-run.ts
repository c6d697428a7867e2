/**
 * Runs one research run inside a worker: wires the engine's dependencies (createEngineDeps) with
 * the database store, the event sink and a usage meter, and turns cancellation, the run's time
 * limit and worker shutdown into the abort reasons the orchestrator understands.
 */
import type { PgBoss } from "pg-boss";
import type { DatabaseHandle, Db } from "../../db/client.ts";
import { getRun, markRunStarted, runStopRequests } from "../../db/queries/runs.ts";
import { createDbRunStore, toRunSnapshot } from "../../db/research-store.ts";
import type { ModelRegistry } from "../ai/registry.ts";
import { UsageMeter, type UsageSnapshot } from "../ai/usage.ts";
import type {
  EngineDeps,
  EventOf,
  EventSink,
  RunOutcome,
  RunStore,
  TerminalEvent,
} from "../research/index.ts";
import {
  because,
  defaultPhases,
  isNotConfigured,
  type RunAbortReason,
  resolveResearchConfig,
  runResearch,
} from "../research/index.ts";
import { runScope } from "../telemetry/scopes.ts";
import type { RunBus } from "./bus.ts";
import { createEngineDeps, processModelRegistry } from "./engine-deps.ts";
import { createRunEventSink } from "./event-sink.ts";
import { applyRunCeilings, runBudget, runCeilingsFromEnv } from "./run-limits.ts";
import { noteVersionReady } from "./schedules/version-ready.ts";
import { effectiveConfig } from "./settings/effective-config.ts";
import { recheckCitedSources } from "./source-recheck.ts";
import { type CoalescedSaves, coalescedSaves } from "./usage-saves.ts";
import { oweRunWebhook } from "./webhooks/owed.ts";

export interface ExecuteRunOptions {
  handle: DatabaseHandle;
  bus: RunBus;
  runId: string;
  /** Aborted by the worker when it stops, or by the queue when this worker lost the job. */
  workerSignal: AbortSignal;
  env?: Record<string, string | undefined>;
  registry?: ModelRegistry;
  /** How often the run row is checked for a cancel or finish request (the bus usually delivers it first). */
  cancelPollMs?: number;
  /** The worker's queue: a run ending completed or failed owes its webhook through it, if it has one. */
  boss?: PgBoss;
}

/** One attempt at a run, in its own span and log context (every line inside carries the run id). */
export function executeRun(opts: ExecuteRunOptions): Promise<RunOutcome> {
  return runScope(opts.runId, async (span) => {
    const outcome = await executeRunInScope(opts);
    span.setAttribute("run.outcome", outcome.status);
    return outcome;
  });
}

async function executeRunInScope(opts: ExecuteRunOptions): Promise<RunOutcome> {
  const { handle, bus, runId } = opts;
  const db = handle.db;
  // The environment with the admin's stored settings over it (models, keys, search, limits).
  const env = (await effectiveConfig(db, opts.env ?? process.env)).env;
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
  // "Write the report now" stops research only; the run goes on to its report.
  const gather = new AbortController();
  const stopGathering = () => {
    if (!gather.signal.aborted) gather.abort(new Error("the owner asked for the report now"));
  };
  cleanups.push(
    bus.subscribe(runId, (m) => {
      if (m.kind === "cancel") abort({ kind: "cancelled", by: "the user" });
      if (m.kind === "finish") stopGathering();
    }),
  );
  const poll = setInterval(async () => {
    try {
      const asked = await runStopRequests(db, runId);
      if (asked.cancel) abort({ kind: "cancelled", by: "the user" });
      if (asked.finish) stopGathering();
    } catch {
      // a failed poll is retried on the next tick; the bus is the primary path
    }
  }, opts.cancelPollMs ?? 1000);
  cleanups.push(() => clearInterval(poll));
  if (run.cancelRequestedAt) abort({ kind: "cancelled", by: "the user" });
  if (run.finishRequestedAt) stopGathering();

  // The server's ceilings hold for every attempt, whatever the run was created with.
  const ceilings = runCeilingsFromEnv(env);
  const config = applyRunCeilings(resolveResearchConfig(run.settings), ceilings);
  const startedAt = run.startedAt ?? (await markRunStarted(db, runId, new Date()));
  const remaining = config.runTimeoutMs - (Date.now() - startedAt.getTime());
  const timer = setTimeout(
    () => abort({ kind: "timeout", limitMs: config.runTimeoutMs }),
    Math.max(0, remaining),
  );
  cleanups.push(() => clearTimeout(timer));

  const { store, events } = createRunWriters(db, bus, runId, opts.boss);
  let meter: UsageMeter | undefined;
  let usageSaves: CoalescedSaves<UsageSnapshot> | undefined;
  try {
    const registry = opts.registry ?? processModelRegistry(env);
    meter = new UsageMeter({
      pricing: registry.pricing,
      budget: runBudget(
        run.settings.budget as { maxTokens?: number; maxCostUsd?: number } | undefined,
        ceilings,
      ),
      initial: isUsageSnapshot(run.usage) ? run.usage : undefined,
    });
    // Researchers started together end their calls together, and they share a save; the wait also
    // puts the save after the run's next model call has gone out (docs/performance.md). The final
    // save covers the last calls.
    usageSaves = coalescedSaves((snap) => store.saveUsage(snap as unknown as Record<string, unknown>), {
      gatherMs: 100,
    });
    const usage = trackUsage(meter, usageSaves, events);
    cleanups.push(usage.stop);
    const deps = createEngineDeps({
      db,
      run,
      // The run's last usage goes out before its end, so a page following it has the final numbers.
      store: { ...store, finishRun: async (event) => (await usage.final(), store.finishRun(event)) },
      events,
      signal: controller.signal,
      gatherSignal: gather.signal,
      env,
      registry,
      meter,
      config,
    });
    // A refreshed version re-checks the pages its previous version cited before research reads them.
    await recheckCitedSources({
      db,
      runId,
      fetchDocument: deps.fetchDocument,
      events,
      signal: controller.signal,
    });
    // The row read above is the engine's starting snapshot: it is not read again.
    return await runResearch(deps, defaultPhases, toRunSnapshot(run));
  } catch (error) {
    // A configuration gap (a search provider's key, a model's provider) fails the same way on
    // every attempt: end the run now with what to set, instead of letting the queue retry it.
    if (!isNotConfigured(error)) throw error;
    const reason = `The run cannot start: ${error.message}`;
    const why = because("not_configured", { said: error.message });
    await store.finishRun({ type: "run.failed", reason, because: why, partial: false });
    return { status: "failed", reason, partial: false };
  } finally {
    for (const c of cleanups) c();
    // The save in flight first, so the final snapshot is the last one written.
    await usageSaves?.close();
    if (meter) await store.saveUsage(meter.snapshot() as unknown as Record<string, unknown>);
  }
}

/**
 * The engine's store and event sink for one run, as the worker wires them: the database store,
 * whose finishRun is the sink's, so a run's terminal status and event commit together and the
 * event is announced after COMMIT, as the last row of the run.
 */
export function createRunWriters(
  db: Db,
  bus: RunBus,
  runId: string,
  boss?: PgBoss,
): { store: RunStore; events: EventSink } {
  const owe =
    boss &&
    (async (tx: Db, event: TerminalEvent) => {
      const owed = await oweRunWebhook(tx, boss, runId, event.type);
      // A completed new version of a report that differs from the one before: notice and webhook.
      if (event.type === "run.completed") await noteVersionReady(tx, boss, runId);
      return owed;
    });
  const events = createRunEventSink(db, bus, runId, owe);
  const store: RunStore = { ...createDbRunStore(db, runId), finishRun: (event) => events.finish(event) };
  return { store, events };
}

function isUsageSnapshot(u: unknown): u is UsageSnapshot {
  return typeof u === "object" && u !== null && "total" in u && "byRole" in u;
}

/** The usage event of a snapshot: the totals, and the whole snapshot for pages that show it by role and model. */
function usageEvent(snap: UsageSnapshot): EventOf<"usage.updated"> {
  const t = snap.total;
  return {
    type: "usage.updated",
    inputTokens: t.inputTokens,
    outputTokens: t.outputTokens,
    cost: t.costUsd,
    usage: snap,
  };
}

/**
 * Persists usage after each model call (coalesced: calls that end while a save is written are covered
 * by the next one) and emits at most one usage event every 2 s; `final` emits the calls since the
 * last one (before the run's end event, the last a viewer receives).
 */
function trackUsage(
  meter: UsageMeter,
  saves: CoalescedSaves<UsageSnapshot>,
  events: EngineDeps["events"],
): { stop: () => void; final: () => Promise<void> } {
  let lastEmit = 0;
  let emittedCalls = meter.snapshot().total.calls;
  const stop = meter.onRecord(() => {
    const snap = meter.snapshot();
    saves.request(snap);
    if (Date.now() - lastEmit > 2000) {
      lastEmit = Date.now();
      emittedCalls = snap.total.calls;
      void events.emit(usageEvent(snap)).catch(() => {});
    }
  });
  const final = async () => {
    const snap = meter.snapshot();
    if (snap.total.calls === emittedCalls) return;
    emittedCalls = snap.total.calls;
    await events.emit(usageEvent(snap)).catch(() => {});
  };
  return { stop, final };
}
