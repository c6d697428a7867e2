/**
 * One migrated embedded database for the whole unit run. Creating a PGlite database (initdb in
 * WASM) takes 2.5-5 s on a 2-core machine, and the suite opens dozens; starting from a copy of one
 * already migrated takes about 1 s. The template is made once per `vitest run` (test/global-setup.ts),
 * from the committed migrations, so it is never stale; every open still runs migrateDatabase, which
 * finds nothing to apply.
 *
 * Two forms: a dump (tar) for in-memory databases, and a data directory for tests that point the
 * app's runtime at a DATA_DIR (test/support/app-session.ts).
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import type { PGlite } from "@electric-sql/pglite";
import { inject } from "vitest";
import { type DatabaseHandle, migrateDatabase, migrationsFolder, openDatabase } from "../../db/client.ts";

declare module "vitest" {
  interface ProvidedContext {
    /** Where buildMigratedTemplate put the template; absent outside `vitest run` with the global setup. */
    migratedTemplateDir?: string;
  }
}

const DUMP = "template.tar";
const DATA = "data";
/** The migrations folder the template was made with: a test that migrates from another gets none. */
const FOLDER = "migrations-folder.txt";

/** Makes the template in a new temporary directory; `remove` deletes it. */
export async function buildMigratedTemplate(): Promise<{ dir: string; remove(): void }> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "dr-test-template-"));
  const handle = await openDatabase({ dataDir: path.join(dir, DATA) });
  try {
    await migrateDatabase(handle);
    const dump = await (handle.client as PGlite).dumpDataDir("none");
    fs.writeFileSync(path.join(dir, DUMP), Buffer.from(await dump.arrayBuffer()));
    fs.writeFileSync(path.join(dir, FOLDER), migrationsFolder());
  } finally {
    await handle.close();
  }
  return { dir, remove: () => fs.rmSync(dir, { recursive: true, force: true }) };
}

/** The template's directory, when there is one made from the migrations this test would apply. */
function templateDir(): string | undefined {
  const dir = inject("migratedTemplateDir");
  if (!dir || !fs.existsSync(path.join(dir, DUMP))) return undefined;
  return fs.readFileSync(path.join(dir, FOLDER), "utf8") === migrationsFolder() ? dir : undefined;
}

let dump: Blob | undefined;

/** A migrated in-memory PGlite on this thread: from the template when there is one, else created. */
export async function openMigratedPglite(): Promise<DatabaseHandle> {
  const dir = templateDir();
  if (dir) dump ??= new Blob([fs.readFileSync(path.join(dir, DUMP))]);
  const handle = await openDatabase({ dataDir: null, ...(dir ? { startFrom: dump } : {}) });
  await migrateDatabase(handle);
  return handle;
}

/**
 * Fills the empty data directory `dataDir` with a copy of the migrated template, so the app opening
 * it skips initdb. Does nothing without a template (the app then creates the database itself).
 */
export function seedDataDir(dataDir: string): void {
  const dir = templateDir();
  if (!dir) return;
  fs.cpSync(path.join(dir, DATA, "pgdata"), path.join(dataDir, "pgdata"), { recursive: true });
}
