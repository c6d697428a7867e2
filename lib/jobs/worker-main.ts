/**
 * `npm run worker`: a standalone run worker for PostgreSQL deployments. Start as many as needed on
 * any machine that reaches DATABASE_URL; each takes run jobs, and the web tier only enqueues and
 * streams (start it with IN_PROCESS_WORKER=false).
 */
import { getDatabase } from "../../db/client.ts";
import { createRunBus } from "./bus.ts";
import { logUnhandledRejections } from "./process-guard.ts";
import { getBoss } from "./queue.ts";
import { startRunWorker, workerConcurrencyFromEnv } from "./worker.ts";

logUnhandledRejections();

if (!process.env.DATABASE_URL) {
  console.error(
    "npm run worker needs DATABASE_URL: the embedded database belongs to the web process, which runs its own worker.",
  );
  process.exit(2);
}
const handle = await getDatabase();
const bus = await createRunBus(handle);
const concurrency = workerConcurrencyFromEnv();
const worker = await startRunWorker(handle, bus, { concurrency });
console.log(`[deep-research] worker ready (concurrency ${concurrency}) — pid ${process.pid}`);

let stopping = false;
for (const sig of ["SIGINT", "SIGTERM"] as const) {
  process.on(sig, async () => {
    if (stopping) return;
    stopping = true;
    console.log(`[deep-research] ${sig}: stopping; running runs resume on another attempt`);
    await worker.stop();
    await (await getBoss(handle)).stop({ graceful: true, timeout: 10_000 }).catch(() => {});
    await bus.close();
    await handle.close();
    process.exit(0);
  });
}
