/**
 * This process's Prometheus series (prom-client). Every process counts only what it did itself,
 * so summing a scrape of all processes gives the whole. Figures that must be whole across
 * processes (runs by status, cost, queue depth) are read from the database at scrape time by
 * the web process (lib/server/metrics.ts), in a registry of their own.
 *
 * One registry per process, kept on globalThis: Next.js may load this module more than once.
 */
import { Counter, collectDefaultMetrics, Gauge, Histogram, Registry } from "prom-client";

function createProcessMetrics() {
  const registry = new Registry();
  // Process CPU, memory, GC, handles, and event-loop lag (nodejs_eventloop_lag_*).
  collectDefaultMetrics({ register: registry });
  const on = [registry];
  return {
    registry,
    modelCalls: new Counter({
      name: "deep_research_model_calls_total",
      help: "Model calls by provider, role and outcome (ok, error); one call may span several attempts",
      labelNames: ["provider", "role", "outcome"] as const,
      registers: on,
    }),
    modelCallSeconds: new Histogram({
      name: "deep_research_model_call_duration_seconds",
      help: "Wall time of a model call, retries included, by provider and role",
      labelNames: ["provider", "role"] as const,
      buckets: [0.25, 0.5, 1, 2, 5, 10, 20, 40, 80, 160],
      registers: on,
    }),
    modelErrors: new Counter({
      name: "deep_research_model_errors_total",
      help: "Model calls that failed, by provider, role and kind of error",
      labelNames: ["provider", "role", "error"] as const,
      registers: on,
    }),
    modelRetries: new Counter({
      name: "deep_research_model_retries_total",
      help: "Retried model attempts (transient failures) by provider and role",
      labelNames: ["provider", "role"] as const,
      registers: on,
    }),
    modelTokens: new Counter({
      name: "deep_research_model_tokens_total",
      help: "Tokens used by provider, role and kind (input, output, cached_input, reasoning)",
      labelNames: ["provider", "role", "kind"] as const,
      registers: on,
    }),
    modelCost: new Counter({
      name: "deep_research_model_cost_usd_total",
      help: "Cost in US dollars of model calls by provider and role (models without a price count 0)",
      labelNames: ["provider", "role"] as const,
      registers: on,
    }),
    searches: new Counter({
      name: "deep_research_search_requests_total",
      help: "Search requests by provider and outcome (ok, error, aborted)",
      labelNames: ["provider", "outcome"] as const,
      registers: on,
    }),
    fetches: new Counter({
      name: "deep_research_fetches_total",
      help: "Page fetches by outcome (ok, or the refusal's code, e.g. ssrf_blocked)",
      labelNames: ["outcome"] as const,
      registers: on,
    }),
    ssrfRefusals: new Counter({
      name: "deep_research_ssrf_refusals_total",
      help: "Outbound fetches refused by the SSRF guard, by reason",
      labelNames: ["reason"] as const,
      registers: on,
    }),
    phaseSeconds: new Histogram({
      name: "deep_research_phase_duration_seconds",
      help: "Duration of completed run phases",
      labelNames: ["phase"] as const,
      buckets: [1, 5, 15, 30, 60, 120, 300, 600, 1200, 2400],
      registers: on,
    }),
    jobRetries: new Counter({
      name: "deep_research_job_retries_total",
      help: "Run jobs taken up again after an earlier attempt (a worker died or stopped)",
      registers: on,
    }),
    sseConnections: new Gauge({
      name: "deep_research_sse_connections",
      help: "Event streams open now in this process",
      registers: on,
    }),
  };
}

export type ProcessMetrics = ReturnType<typeof createProcessMetrics>;

const globalKey = Symbol.for("deep-research.metrics");
type G = typeof globalThis & { [globalKey]?: ProcessMetrics };

export function metrics(): ProcessMetrics {
  const g = globalThis as G;
  g[globalKey] ??= createProcessMetrics();
  return g[globalKey];
}

export type ModelCallRecord = {
  provider: string;
  role: string;
  seconds: number;
  outcome: "ok" | "error";
  /** The kind of failure, when outcome is error. */
  error?: string;
  tokens?: { inputTokens: number; outputTokens: number; cachedInputTokens: number; reasoningTokens: number };
  costUsd?: number;
};

export function recordModelCall(r: ModelCallRecord): void {
  const m = metrics();
  const who = { provider: r.provider, role: r.role };
  m.modelCalls.inc({ ...who, outcome: r.outcome });
  m.modelCallSeconds.observe(who, r.seconds);
  if (r.outcome === "error") m.modelErrors.inc({ ...who, error: r.error ?? "other" });
  if (r.tokens) {
    m.modelTokens.inc({ ...who, kind: "input" }, r.tokens.inputTokens);
    m.modelTokens.inc({ ...who, kind: "output" }, r.tokens.outputTokens);
    m.modelTokens.inc({ ...who, kind: "cached_input" }, r.tokens.cachedInputTokens);
    m.modelTokens.inc({ ...who, kind: "reasoning" }, r.tokens.reasoningTokens);
  }
  if (r.costUsd) m.modelCost.inc(who, r.costUsd);
}

/** Prometheus text of this process's registry, with `extra` registries (the database's) appended. */
export async function metricsText(...extra: Registry[]): Promise<{ contentType: string; body: string }> {
  const own = metrics().registry;
  const parts = [await own.metrics()];
  for (const r of extra) parts.push(await r.metrics());
  return { contentType: own.contentType, body: parts.join("\n") };
}
