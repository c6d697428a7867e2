/**
 * The one database client module. DATABASE_URL set → PostgreSQL through postgres.js;
 * unset → embedded PGlite under DATA_DIR. Both return the same drizzle API over the same schema,
 * so every query in db/queries runs unchanged on either.
 */
import fs from "node:fs";
import path from "node:path";
import { PGlite, type QueryOptions, type Results, type Transaction } from "@electric-sql/pglite";
import { sql } from "drizzle-orm";
import type { PgDatabase, PgQueryResultHKT } from "drizzle-orm/pg-core";
import { drizzle as drizzlePglite } from "drizzle-orm/pglite";
import { migrate as migratePglite } from "drizzle-orm/pglite/migrator";
import { drizzle as drizzlePostgres } from "drizzle-orm/postgres-js";
import { migrate as migratePostgres } from "drizzle-orm/postgres-js/migrator";
import { fromDrizzle } from "pg-boss";
import postgres from "postgres";
import { claimEmbeddedDir, releaseEmbeddedDir } from "./backup.ts";
import { ThreadedPglite } from "./pglite-threaded.ts";
import * as schema from "./schema.ts";

export type Db = PgDatabase<PgQueryResultHKT, typeof schema>;

/** What the app uses of PGlite: PGlite itself, or a ThreadedPglite (PGlite on its own thread). */
export interface EmbeddedClient {
  query<T>(text: string, params?: unknown[], options?: QueryOptions): Promise<Results<T>>;
  exec(text: string, options?: QueryOptions): Promise<Results[]>;
  transaction<T>(work: (tx: Transaction) => Promise<T>): Promise<T>;
  listen(channel: string, callback: (payload: string) => void): Promise<() => Promise<void>>;
  dumpDataDir(compression?: "gzip" | "none" | "auto"): Promise<Blob>;
  close(): Promise<void>;
}

export type DatabaseHandle =
  | {
      kind: "pglite";
      db: Db;
      client: EmbeddedClient;
      dataDir: string | null;
      close(): Promise<void>;
    }
  | { kind: "postgres"; db: Db; client: postgres.Sql; url: string; close(): Promise<void> };

export interface OpenOptions {
  /** PostgreSQL URL; when absent, PGlite is used. */
  url?: string;
  /** PGlite data directory; null = in memory (tests). */
  dataDir?: string | null;
  /** Connection pool size for postgres.js. */
  poolSize?: number;
  /**
   * Run embedded PGlite on its own thread (db/pglite-threaded.ts), as the app does: its work then
   * leaves the event loop free. Off, it runs on the caller's thread (scripts, most tests).
   */
  thread?: boolean;
  /** With `thread`: what to do if the thread ends without close() (see ThreadOptions). */
  onThreadEnd?: (error: Error) => void;
  /**
   * In memory only (`dataDir: null`, no thread): start from this dumped data directory
   * (PGlite's dumpDataDir) rather than an empty one. Tests start from one migrated copy.
   */
  startFrom?: Blob;
}

/** Where the committed migrations live; the app is always started from the project root. */
export function migrationsFolder(): string {
  return process.env.MIGRATIONS_DIR ?? path.join(/*turbopackIgnore: true*/ process.cwd(), "db", "migrations");
}

export async function openDatabase(opts: OpenOptions = {}): Promise<DatabaseHandle> {
  if (opts.url) {
    const client = postgres(opts.url, {
      max: opts.poolSize ?? 10,
      onnotice: () => {},
      // Fail fast when the server is down instead of hanging the health check.
      connect_timeout: 10,
    });
    const db = drizzlePostgres(client, { schema }) as unknown as Db;
    return { kind: "postgres", db, client, url: opts.url, close: () => client.end({ timeout: 5 }) };
  }
  const dataDir = opts.dataDir === undefined ? defaultDataDir() : opts.dataDir;
  const pgdata = dataDir ? path.join(/*turbopackIgnore: true*/ dataDir, "pgdata") : null;
  if (dataDir) fs.mkdirSync(/*turbopackIgnore: true*/ dataDir, { recursive: true });
  if (opts.startFrom && (pgdata || opts.thread)) {
    throw new Error("openDatabase: startFrom is for an in-memory database on the caller's thread");
  }
  let client: EmbeddedClient;
  if (opts.thread) {
    const threaded = new ThreadedPglite(pgdata, { onUnexpectedEnd: opts.onThreadEnd });
    await threaded.waitReady.catch(async (e) => {
      await threaded.close();
      throw e;
    });
    client = threaded;
  } else {
    const local = pgdata
      ? new PGlite(pgdata)
      : new PGlite(opts.startFrom ? { loadDataDir: opts.startFrom } : undefined);
    await local.waitReady;
    yieldBeforeEachStatement(local);
    client = local;
  }
  const db = drizzlePglite(client as PGlite, { schema }) as unknown as Db;
  // `npm run backup` / `restore` must know whether a process has this directory open.
  if (dataDir) claimEmbeddedDir(dataDir);
  const close = async () => {
    await client.close();
    if (dataDir) releaseEmbeddedDir(dataDir);
  };
  return { kind: "pglite", db, client, dataDir, close };
}

/**
 * PGlite runs each statement synchronously on the process's one thread; statements queued behind
 * each other (many runs, many viewers) would run back to back in one chain of promise callbacks,
 * and timers and network I/O wait until the queue drains. A turn of the event
 * loop before each statement keeps the longest wait at about one statement. Order is kept
 * (setImmediate is first in, first out); statements inside a transaction run together as before.
 */
function yieldBeforeEachStatement(client: PGlite): void {
  const turn = () => new Promise<void>((resolve) => setImmediate(resolve));
  const query = client.query.bind(client);
  const exec = client.exec.bind(client);
  client.query = (async (...args: Parameters<typeof query>) => {
    await turn();
    return query(...args);
  }) as typeof client.query;
  client.exec = (async (...args: Parameters<typeof exec>) => {
    await turn();
    return exec(...args);
  }) as typeof client.exec;
}

export function defaultDataDir(env: NodeJS.ProcessEnv = process.env): string {
  return path.resolve(/*turbopackIgnore: true*/ process.cwd(), env.DATA_DIR || ".data");
}

/** Applies every committed migration not yet applied; idempotent, safe at every start. */
export async function migrateDatabase(handle: DatabaseHandle): Promise<void> {
  const folder = migrationsFolder();
  if (handle.kind === "pglite") {
    // biome-ignore lint/suspicious/noExplicitAny: the migrator wants the driver-specific database type
    await migratePglite(handle.db as any, { migrationsFolder: folder });
  } else {
    // biome-ignore lint/suspicious/noExplicitAny: the migrator wants the driver-specific database type
    await migratePostgres(handle.db as any, { migrationsFolder: folder });
  }
}

/**
 * Embedded PGlite opens a table's or index's files, and loads its catalog entries, the first time a
 * statement touches it, paid inside the first research run after a start (the
 * first report, the first citations). Asking every relation's size once at start does that work
 * up front, in one statement. Returns how many relations were opened. PostgreSQL keeps its own
 * backends warm: nothing to do there.
 */
export async function warmEmbeddedDatabase(handle: DatabaseHandle): Promise<number> {
  if (handle.kind !== "pglite") return 0;
  const r = await handle.client.query<{ relations: number }>(
    `select count(pg_relation_size(c.oid))::int as relations
       from pg_class c join pg_namespace n on n.oid = c.relnamespace
      where n.nspname in ('public', 'pgboss') and c.relkind in ('r', 'i', 't')`,
  );
  return r.rows[0]?.relations ?? 0;
}

/** A transaction as pg-boss's `db` option, so a job is sent inside (and commits with) the caller's transaction. */
export function queueTransaction(tx: Db) {
  return fromDrizzle(tx as unknown as Parameters<typeof fromDrizzle>[0], sql);
}

export async function pingDatabase(handle: DatabaseHandle): Promise<void> {
  await handle.db.execute(sql`select 1`);
}

// One database per process: Next.js may evaluate this module in several bundles (instrumentation,
// route handlers), and two PGlite instances on one data directory would corrupt it.
const globalKey = Symbol.for("deep-research.database");
type GlobalWithDb = typeof globalThis & { [globalKey]?: Promise<DatabaseHandle> };

/** The process-wide database from the environment, opened and migrated once. */
export function getDatabase(env: NodeJS.ProcessEnv = process.env): Promise<DatabaseHandle> {
  const g = globalThis as GlobalWithDb;
  if (!g[globalKey]) {
    const opening = (async () => {
      const handle = await openDatabase({
        url: env.DATABASE_URL || undefined,
        dataDir: defaultDataDir(env),
        thread: true,
        onThreadEnd: endProcessWithDatabase,
      });
      await migrateDatabase(handle);
      await warmEmbeddedDatabase(handle);
      return handle;
    })();
    // A failed open (e.g. Postgres down) must not be cached forever: the next request retries.
    opening.catch(() => {
      if (g[globalKey] === opening) g[globalKey] = undefined;
    });
    g[globalKey] = opening;
  }
  return g[globalKey];
}

/**
 * The embedded database's thread died under the app (a crash): nothing can be read or written any
 * more, so the process ends as after any crash — restarted, its runs resume from their checkpoints —
 * rather than serving errors until someone notices.
 */
function endProcessWithDatabase(error: Error): void {
  process.stderr.write(`fatal: ${error.message}; the process ends so it can be restarted\n`);
  process.exit(1);
}

/** Closes the process-wide database, if open; the next getDatabase() opens it again. */
export async function closeDatabase(): Promise<void> {
  const g = globalThis as GlobalWithDb;
  const opening = g[globalKey];
  g[globalKey] = undefined;
  const handle = await opening?.catch(() => undefined);
  await handle?.close();
}
