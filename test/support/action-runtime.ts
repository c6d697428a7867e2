/**
 * The runtime the API's run actions need, on embedded PGlite with the real queue and bus: for tests
 * that call lib/server's run actions directly. Close it with closeActionRuntime.
 */
import type { DatabaseHandle } from "../../db/client.ts";
import { createRunBus } from "../../lib/jobs/bus.ts";
import { getBoss } from "../../lib/jobs/queue.ts";
import type { Runtime } from "../../lib/jobs/runtime.ts";
import { openMigratedPglite } from "./db-template.ts";

export async function openActionRuntime(): Promise<{ h: DatabaseHandle; rt: Runtime }> {
  const h = await openMigratedPglite();
  const rt = { handle: h, bus: await createRunBus(h) };
  await getBoss(h);
  return { h, rt };
}

export async function closeActionRuntime(h: DatabaseHandle | undefined): Promise<void> {
  if (!h) return;
  await (await getBoss(h)).stop({ graceful: false }).catch(() => {});
  await h.close();
}
