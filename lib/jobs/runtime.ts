/**
 * The process's job runtime: database, bus, queue and (unless disabled) the in-process worker,
 * each created once per process. Route handlers use it to enqueue, cancel and stream.
 */
import { closeDatabase, type DatabaseHandle, getDatabase } from "../../db/client.ts";
import { createRunBus, type RunBus } from "./bus.ts";
import { getBoss, queueSettingsFromEnv, stopBoss } from "./queue.ts";
import { type RunWorker, startRunWorker } from "./worker.ts";

export interface Runtime {
  handle: DatabaseHandle;
  bus: RunBus;
  worker?: RunWorker;
}

const key = Symbol.for("deep-research.runtime");
type G = typeof globalThis & { [key]?: Promise<Runtime> };

/** IN_PROCESS_WORKER=false lets a web server only enqueue and stream (workers run elsewhere). */
export function inProcessWorkerEnabled(env: Record<string, string | undefined> = process.env): boolean {
  const v = (env.IN_PROCESS_WORKER ?? "true").toLowerCase();
  return !["0", "false", "no", "off"].includes(v);
}

export function getRuntime(opts: { startWorker?: boolean; clock?: boolean } = {}): Promise<Runtime> {
  const g = globalThis as G;
  if (!g[key]) {
    const starting = (async () => {
      const handle = await getDatabase();
      const bus = await createRunBus(handle);
      await getBoss(handle, { ...queueSettingsFromEnv(), clock: opts.clock });
      const startWorker = opts.startWorker ?? inProcessWorkerEnabled();
      const worker = startWorker ? await startRunWorker(handle, bus) : undefined;
      return { handle, bus, worker };
    })();
    starting.catch(() => {
      if (g[key] === starting) g[key] = undefined;
    });
    g[key] = starting;
  }
  return g[key];
}

/**
 * Stops the process's runtime — worker (its running runs resume on another attempt), queue, bus —
 * and closes the database; the next getRuntime() starts afresh.
 */
export async function stopRuntime(): Promise<void> {
  const g = globalThis as G;
  const starting = g[key];
  g[key] = undefined;
  const rt = await starting?.catch(() => undefined);
  await rt?.worker?.stop();
  await stopBoss();
  await rt?.bus.close();
  await closeDatabase();
}
