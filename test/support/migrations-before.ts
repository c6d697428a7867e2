/**
 * The committed migrations as they were before one of them: a copy of the folder whose journal stops
 * short of `tag`, so a test can build a database of that time, write rows the old way, and then
 * migrate it the rest of the way (MIGRATIONS_DIR switches the app's migrations folder).
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll } from "vitest";
import { type DatabaseHandle, migrateDatabase, migrationsFolder } from "../../db/client.ts";

export function migrationsBefore(tag: string): { folder: string; remove(): void } {
  const folder = fs.mkdtempSync(path.join(os.tmpdir(), `migrations-before-${tag}-`));
  fs.cpSync(migrationsFolder(), folder, { recursive: true });
  const journalFile = path.join(folder, "meta", "_journal.json");
  const journal = JSON.parse(fs.readFileSync(journalFile, "utf8"));
  journal.entries = journal.entries.filter((e: { tag: string }) => e.tag < tag);
  fs.writeFileSync(journalFile, JSON.stringify(journal));
  return { folder, remove: () => fs.rmSync(folder, { recursive: true, force: true }) };
}

/**
 * For one describe block: `open()` builds a database as it was before `tag` (with `openAt`), and
 * `migrateRest()` applies the migrations after it. The copied folder, the handle and MIGRATIONS_DIR
 * are cleaned up after the block.
 */
export function useDatabaseBefore(tag: string, openAt: () => Promise<DatabaseHandle>) {
  const full = migrationsFolder();
  const old = migrationsBefore(tag);
  let handle: DatabaseHandle | undefined;
  afterAll(async () => {
    delete process.env.MIGRATIONS_DIR;
    await handle?.close();
    old.remove();
  });
  return {
    async open(): Promise<DatabaseHandle> {
      process.env.MIGRATIONS_DIR = old.folder;
      handle = await openAt();
      return handle;
    },
    async migrateRest(): Promise<void> {
      process.env.MIGRATIONS_DIR = full;
      if (handle) await migrateDatabase(handle);
    },
  };
}
