/**
 * `npm run worker`: a standalone run worker for PostgreSQL deployments. Start as many as needed on
 * any machine that reaches DATABASE_URL; each takes run jobs, and the web tier only enqueues and
 * streams (start it with IN_PROCESS_WORKER=false). With METRICS_PORT (and METRICS_TOKEN) each
 * serves its own Prometheus series; with an OTLP endpoint it exports its runs' traces.
 */
import { getDatabase } from "../../db/client.ts";
import { log } from "../telemetry/log.ts";
import { startMetricsServer } from "../telemetry/metrics-server.ts";
import { startTracing } from "../telemetry/tracing.ts";
import { createRunBus } from "./bus.ts";
import { logUnhandledRejections } from "./process-guard.ts";
import { getBoss } from "./queue.ts";
import { startRunWorker, workerConcurrencyFromEnv } from "./worker.ts";

logUnhandledRejections();

if (!process.env.DATABASE_URL) {
  log("worker").error(
    "npm run worker needs DATABASE_URL: the embedded database belongs to the web process, which runs its own worker.",
  );
  process.exit(2);
}
await startTracing();
const metricsServer = await startMetricsServer();
const handle = await getDatabase();
const bus = await createRunBus(handle);
const concurrency = workerConcurrencyFromEnv();
const worker = await startRunWorker(handle, bus, { concurrency });
log("worker").info({ concurrency, pid: process.pid }, "worker ready");

let stopping = false;
for (const sig of ["SIGINT", "SIGTERM"] as const) {
  process.on(sig, async () => {
    if (stopping) return;
    stopping = true;
    log("worker").info(`${sig}: stopping; running runs resume on another attempt`);
    await worker.stop();
    await (await getBoss(handle)).stop({ graceful: true, timeout: 10_000 }).catch(() => {});
    metricsServer?.close();
    await bus.close();
    await handle.close();
    process.exit(0);
  });
}
