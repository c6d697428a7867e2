/**
 * The databases integration tests run against: embedded PGlite (in memory) always, and a real
 * PostgreSQL when TEST_DATABASE_URL is set — each test file gets its own freshly created database
 * there, so files can run in parallel and nothing leaks between them.
 */
import { randomBytes } from "node:crypto";
import postgres from "postgres";
import { type DatabaseHandle, migrateDatabase, openDatabase } from "../db/client.ts";
import { openMigratedPglite } from "./support/db-template.ts";

export interface TestDatabase {
  name: "pglite" | "postgres";
  /** How the list names it: "pglite", "pglite on its own thread", "postgres". */
  label: string;
  open(): Promise<DatabaseHandle>;
}

const pgUrl = process.env.TEST_DATABASE_URL;

/**
 * `threaded` adds embedded PGlite on its own thread, as the app runs it (db/pglite-threaded.ts):
 * the database layer's own tests run on it too; other files keep to the two databases.
 */
export function testDatabases(opts: { threaded?: boolean } = {}): TestDatabase[] {
  const embedded = (thread: boolean) => async () => {
    // On this thread from the migrated template; the thread's own PGlite is created and migrated.
    if (!thread) return openMigratedPglite();
    const handle = await openDatabase({ dataDir: null, thread });
    await migrateDatabase(handle);
    return handle;
  };
  const list: TestDatabase[] = [{ name: "pglite", label: "pglite", open: embedded(false) }];
  if (opts.threaded) {
    list.push({ name: "pglite", label: "pglite on its own thread", open: embedded(true) });
  }
  if (pgUrl) {
    list.push({ name: "postgres", label: "postgres", open: () => openFreshPostgres(pgUrl) });
  } else if (!warned) {
    warned = true;
    console.warn(
      "\n*** PostgreSQL integration tests NOT RUN: TEST_DATABASE_URL is unset. " +
        "Set it (e.g. TEST_DATABASE_URL=postgres://postgres@127.0.0.1:5432/test) to run them. ***\n",
    );
  }
  return list;
}
let warned = false;

/**
 * Creates an empty throwaway database on the server of `baseUrl`: its URL, and `drop` to remove it
 * (for a separate process, e.g. the app a benchmark starts, which migrates it itself).
 */
export async function createFreshPostgresDatabase(
  baseUrl: string,
): Promise<{ url: string; drop(): Promise<void> }> {
  const name = `dr_test_${Date.now()}_${randomBytes(4).toString("hex")}`;
  const admin = postgres(baseUrl, { max: 1, onnotice: () => {} });
  await admin.unsafe(`create database ${name}`);
  await admin.end();
  const url = new URL(baseUrl);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    async drop() {
      const dropper = postgres(baseUrl, { max: 1, onnotice: () => {} });
      await dropper.unsafe(`drop database if exists ${name} with (force)`);
      await dropper.end();
    },
  };
}

/** Creates a throwaway database next to TEST_DATABASE_URL's, migrated; dropped again on close. */
export async function openFreshPostgres(baseUrl: string): Promise<DatabaseHandle> {
  const fresh = await createFreshPostgresDatabase(baseUrl);
  const handle = await openDatabase({ url: fresh.url, poolSize: 5 });
  await migrateDatabase(handle);
  const close = handle.close;
  handle.close = async () => {
    await close();
    await fresh.drop();
  };
  return handle;
}
