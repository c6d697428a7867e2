/**
 * Backups of either database. PostgreSQL: pg_dump's custom format, restored with pg_restore.
 * Embedded PGlite: its data directory can only be read consistently by the process that has it
 * open, so the running app takes the snapshot (dumpDataDir runs between statements, under PGlite's
 * own query lock) and `npm run backup` asks it over HTTP; with the app stopped the CLI opens the
 * directory itself. A small owner file in DATA_DIR tells the CLI which case it is in.
 */
import { execFile } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { promisify } from "node:util";
import { PGlite } from "@electric-sql/pglite";

const run = promisify(execFile);

/** Written beside pgdata while a process has the embedded database open. */
const ownerFile = "pgdata.owner.json";

export function claimEmbeddedDir(dataDir: string): void {
  fs.writeFileSync(path.join(dataDir, ownerFile), JSON.stringify({ pid: process.pid, since: new Date() }));
}

export function releaseEmbeddedDir(dataDir: string): void {
  const file = path.join(dataDir, ownerFile);
  try {
    if (JSON.parse(fs.readFileSync(file, "utf8")).pid === process.pid) fs.rmSync(file);
  } catch {
    // already gone, or another process's: leave it
  }
}

/** The pid of a live process that has DATA_DIR's database open, or null (none, or it crashed). */
export function embeddedDirOwner(dataDir: string): number | null {
  let pid: number;
  try {
    pid = Number(JSON.parse(fs.readFileSync(path.join(dataDir, ownerFile), "utf8")).pid);
  } catch {
    return null;
  }
  if (!Number.isInteger(pid) || pid <= 0) return null;
  try {
    process.kill(pid, 0);
    return pid;
  } catch (e) {
    // EPERM: alive but not ours to signal; anything else: gone.
    return (e as NodeJS.ErrnoException).code === "EPERM" ? pid : null;
  }
}

/** A gzipped tar of the open database's data directory, consistent at a statement boundary. */
export async function snapshotEmbedded(client: Pick<PGlite, "dumpDataDir">): Promise<Uint8Array> {
  const archive = await client.dumpDataDir("gzip");
  return new Uint8Array(await archive.arrayBuffer());
}

/** Snapshot of a data directory no process has open (the app is stopped). */
export async function snapshotClosedEmbedded(dataDir: string): Promise<Uint8Array> {
  const client = new PGlite(path.join(dataDir, "pgdata"));
  try {
    await client.waitReady;
    return await snapshotEmbedded(client);
  } finally {
    await client.close();
  }
}

/**
 * Replaces DATA_DIR's database with the archive's. The current one is kept aside as
 * pgdata.before-restore-<time>, so a restore over the wrong directory loses nothing.
 */
export async function restoreEmbedded(archive: Uint8Array, dataDir: string): Promise<string | null> {
  fs.mkdirSync(dataDir, { recursive: true });
  const target = path.join(dataDir, "pgdata");
  let keptAside: string | null = null;
  if (fs.existsSync(target)) {
    keptAside = `${target}.before-restore-${new Date().toISOString().replace(/[:.]/g, "-")}`;
    fs.renameSync(target, keptAside);
  }
  const client = await PGlite.create(target, { loadDataDir: new Blob([archive as BlobPart]) });
  try {
    await client.query("select 1");
  } finally {
    await client.close();
  }
  return keptAside;
}

async function runTool(tool: string, args: string[]): Promise<void> {
  try {
    await run(tool, args, { maxBuffer: 16 * 1024 * 1024 });
  } catch (e) {
    const err = e as NodeJS.ErrnoException & { stderr?: string };
    if (err.code === "ENOENT") {
      throw new Error(
        `${tool} was not found: install PostgreSQL's client tools (Debian: apt-get install postgresql-client).`,
      );
    }
    throw new Error(`${tool} failed: ${(err.stderr ?? err.message).trim()}`);
  }
}

/** pg_dump in its custom format (compressed; pg_restore can restore selectively). */
export function dumpPostgres(url: string, file: string): Promise<void> {
  return runTool("pg_dump", [
    "--format=custom",
    "--no-owner",
    "--no-privileges",
    `--file=${file}`,
    `--dbname=${url}`,
  ]);
}

/** Restores a pg_dump archive into the database at url, replacing the objects it contains. */
export function restorePostgres(url: string, file: string): Promise<void> {
  return runTool("pg_restore", [
    "--clean",
    "--if-exists",
    "--no-owner",
    "--no-privileges",
    "--single-transaction",
    `--dbname=${url}`,
    file,
  ]);
}
