/**
 * GET /api/metrics: this web process's series plus the figures that must be whole across
 * processes, read from the database at scrape time (runs by status, their total cost, the run
 * queue's jobs by state). An admin session, or the scraper's METRICS_TOKEN.
 */
import { Gauge, Registry } from "prom-client";
import type { Db } from "../../../db/client.ts";
import { countQueueJobsByState, countRunsByStatus, totalRunCostUsd } from "../../../db/queries/metrics.ts";
import { RUN_QUEUE } from "../../jobs/queue.ts";
import { metricsText } from "../../telemetry/metrics.ts";
import { carriesMetricsToken } from "../../telemetry/metrics-auth.ts";
import { requireAdmin } from "../auth/caller.ts";

type Env = Readonly<Record<string, string | undefined>>;

/** METRICS_TOKEN first: any other bearer would be taken for a personal API token. */
export async function authorizeMetrics(req: Request, env: Env = process.env): Promise<void> {
  if (carriesMetricsToken(req.headers.get("authorization"), env)) return;
  await requireAdmin(req, "admin");
}

/** A registry built for one scrape from the database's figures. */
export async function databaseMetrics(db: Db): Promise<Registry> {
  const registry = new Registry();
  const on = [registry];
  const [byStatus, cost, jobs] = await Promise.all([
    countRunsByStatus(db),
    totalRunCostUsd(db),
    countQueueJobsByState(db, RUN_QUEUE),
  ]);
  const runs = new Gauge({
    name: "deep_research_runs",
    help: "Runs by status, from the database (whole across processes)",
    labelNames: ["status"] as const,
    registers: on,
  });
  for (const r of byStatus) runs.set({ status: r.status }, r.count);
  new Gauge({
    name: "deep_research_runs_failed",
    help: "Runs that ended failed, from the database (whole across processes)",
    registers: on,
  }).set(byStatus.find((r) => r.status === "failed")?.count ?? 0);
  new Gauge({
    name: "deep_research_runs_cost_usd",
    help: "Recorded model cost of all runs in US dollars, from the database (whole across processes)",
    registers: on,
  }).set(cost);
  const queue = new Gauge({
    name: "deep_research_queue_jobs",
    help: "Run jobs in the queue by state (created = waiting for a worker, active, retry, …), from the database",
    labelNames: ["state"] as const,
    registers: on,
  });
  for (const j of jobs) queue.set({ state: j.state }, j.count);
  return registry;
}

export async function metricsResponse(db: Db): Promise<Response> {
  const { contentType, body } = await metricsText(await databaseMetrics(db));
  return new Response(body, { headers: { "content-type": contentType, "cache-control": "no-store" } });
}
