/** The migrated template the unit suite's embedded databases start from (test/support/db-template.ts). */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { sql } from "drizzle-orm";
import { afterAll, describe, expect, inject, it } from "vitest";
import { migrateDatabase, migrationsFolder, openDatabase } from "../db/client.ts";
import { openMigratedPglite, seedDataDir } from "./support/db-template.ts";

const journal = JSON.parse(
  fs.readFileSync(path.join(migrationsFolder(), "meta", "_journal.json"), "utf8"),
) as {
  entries: unknown[];
};
const dirs: string[] = [];
afterAll(() => {
  for (const d of dirs) fs.rmSync(d, { recursive: true, force: true });
});

async function appliedMigrations(handle: Awaited<ReturnType<typeof openMigratedPglite>>) {
  const rows = await handle.db.execute(sql`select count(*)::int as n from drizzle.__drizzle_migrations`);
  return Number((rows as unknown as { rows: { n: number }[] }).rows[0].n);
}

describe("the migrated database template", () => {
  it("is made by the global setup, and an in-memory database opened from it has every migration", async () => {
    expect(inject("migratedTemplateDir")).toBeTruthy();
    const handle = await openMigratedPglite();
    try {
      expect(await appliedMigrations(handle)).toBe(journal.entries.length);
      // A copy: what one test writes, the next database opened does not see.
      await handle.db.execute(
        sql`insert into app_settings (key, value) values ('template-test', '1'::jsonb)`,
      );
    } finally {
      await handle.close();
    }
    const other = await openMigratedPglite();
    try {
      const rows = await other.db.execute(sql`select key from app_settings where key = 'template-test'`);
      expect((rows as unknown as { rows: unknown[] }).rows).toEqual([]);
    } finally {
      await other.close();
    }
  });

  it("seeds an app's data directory with the migrated database", async () => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "dr-template-seed-"));
    dirs.push(dataDir);
    seedDataDir(dataDir);
    expect(fs.existsSync(path.join(dataDir, "pgdata", "PG_VERSION"))).toBe(true);
    const handle = await openDatabase({ dataDir });
    try {
      expect(await appliedMigrations(handle)).toBe(journal.entries.length);
      await migrateDatabase(handle);
      expect(await appliedMigrations(handle)).toBe(journal.entries.length);
    } finally {
      await handle.close();
    }
  });

  it("is not used when a test migrates from another folder: that database is created and migrated", async () => {
    const cut = fs.mkdtempSync(path.join(os.tmpdir(), "dr-template-migrations-"));
    dirs.push(cut);
    fs.cpSync(migrationsFolder(), cut, { recursive: true });
    const file = path.join(cut, "meta", "_journal.json");
    fs.writeFileSync(file, JSON.stringify({ ...journal, entries: journal.entries.slice(0, 2) }));
    process.env.MIGRATIONS_DIR = cut;
    try {
      const handle = await openMigratedPglite();
      try {
        expect(await appliedMigrations(handle)).toBe(2);
      } finally {
        await handle.close();
      }
    } finally {
      delete process.env.MIGRATIONS_DIR;
    }
  });

  it("is refused for a database on disk or on its own thread", async () => {
    const startFrom = new Blob([]);
    await expect(openDatabase({ dataDir: os.tmpdir(), startFrom })).rejects.toThrow(/in-memory/);
    await expect(openDatabase({ dataDir: null, thread: true, startFrom })).rejects.toThrow(/in-memory/);
  });
});
