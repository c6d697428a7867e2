/**
 * The one way route handlers and pages reach the database, bus and queue: the process's runtime
 * (started at server start by bootstrap.ts; this returns the same instance). They pass it to the
 * lib/server functions they call and never query db/ themselves.
 */
import { getRuntime, type Runtime } from "../jobs/runtime.ts";

export type { Runtime } from "../jobs/runtime.ts";

export function serverRuntime(): Promise<Runtime> {
  return getRuntime();
}
