/**
 * Server start-up, called once from instrumentation.ts: open the database, apply migrations, start
 * the queue with its clock for scheduled refresh, the schedule worker, and (unless
 * IN_PROCESS_WORKER=false) the run worker before the first request, so a
 * fresh clone works with no manual step and interrupted runs resume. A database that cannot be
 * reached does not stop the server: /api/health reports it and requests retry the connection.
 */
import { getRuntime, inProcessWorkerEnabled } from "../jobs/runtime.ts";
import { log } from "../telemetry/log.ts";
import { startTracing } from "../telemetry/tracing.ts";
import { startScheduleWorker } from "./schedules/worker.ts";

export async function bootstrap(): Promise<void> {
  // Before the first run starts, so its spans are exported; a failure only costs the traces.
  await startTracing().catch((e) => log("server").error({ err: e }, "tracing could not start"));
  try {
    // pg-boss's clock turns stored schedules into jobs; this process starts the versions they ask for.
    const rt = await getRuntime({ clock: true });
    const { handle, worker } = rt;
    await startScheduleWorker(rt);
    const where =
      handle.kind === "postgres" ? "PostgreSQL (DATABASE_URL)" : `embedded PGlite in ${handle.dataDir}`;
    const w = worker
      ? "in-process worker running"
      : inProcessWorkerEnabled()
        ? "no worker"
        : "in-process worker disabled";
    log("server").info(`ready: ${where}, migrations applied, queue started, ${w}`);
  } catch (e) {
    log("server").error({ err: e }, "not ready at start; /api/health will report it");
  }
}
