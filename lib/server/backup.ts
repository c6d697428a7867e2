/**
 * The running app's side of `npm run backup` for the embedded database: only the process that has
 * PGlite open can snapshot it consistently, so an admin (session or API token) asks it to.
 */
import { snapshotEmbedded } from "../../db/backup.ts";
import { AppError } from "../errors.ts";
import type { Runtime } from "../jobs/runtime.ts";

export async function embeddedSnapshot(rt: Runtime): Promise<Uint8Array> {
  if (rt.handle.kind !== "pglite") {
    throw new AppError(
      "conflict",
      "This app runs on PostgreSQL: back it up with `npm run backup` and DATABASE_URL set (it uses pg_dump).",
    );
  }
  return snapshotEmbedded(rt.handle.client);
}

export function backupFileName(now = new Date()): string {
  return `deep-research-${now.toISOString().replace(/[:.]/g, "-")}.tar.gz`;
}
