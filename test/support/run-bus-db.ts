// The setup of the worker-level tests: a fresh, migrated in-memory database and the run bus on it.
import type { DatabaseHandle } from "../../db/client.ts";
import { createRunBus, type RunBus } from "../../lib/jobs/bus.ts";
import { openMigratedPglite } from "./db-template.ts";

export async function openDatabaseWithBus(): Promise<{ h: DatabaseHandle; bus: RunBus }> {
  const h = await openMigratedPglite();
  const bus = await createRunBus(h);
  return { h, bus };
}

/** Closes what openDatabaseWithBus opened; either may be missing when the setup itself failed. */
export async function closeDatabaseWithBus(h: DatabaseHandle | undefined, bus: RunBus | undefined) {
  await bus?.close();
  await h?.close();
}
