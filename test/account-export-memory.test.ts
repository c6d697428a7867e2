// "Export my data" streams: an account with 200 MB of stored source text (5 runs of 10 sources of
// 4 MB, the most a fetched page can be) is exported in a child process, the archive read to its
// end, and the process's RSS (sampled every 5 ms, and its peak as the kernel counts it) may rise by
// at most 100 MB over what it was before. Building the archive in memory, as it used to be, took
// several times the account.
//
// The process first exports a 20 MB account, as a server that has been up a while has done such
// work: a young V8 heap lets garbage grow to hundreds of MB before its first full collections
// (embedded PGlite's thread has a heap of its own), which a fresh process shows whatever it reads.
// PostgreSQL when TEST_DATABASE_URL is set, else embedded PGlite on its own thread, as the app runs it.
import { spawn } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { type DatabaseHandle, migrateDatabase, openDatabase } from "../db/client.ts";
import { sourceTextBytesOf } from "../db/queries/quotas.ts";
import { createFreshPostgresDatabase } from "./databases.ts";
import { seedDataDir } from "./support/db-template.ts";

const MB = 1024 * 1024;
const OWNER = "exporter";
const WARM_OWNER = "warm-up";
const RUNS = 5;
const SOURCES_PER_RUN = 10;
// md5 is 32 characters: 131072 of them make 4 MB.
const REPEATS = (4 * MB) / 32;

/** A completed run of `owner` with `pages` sources of 4 MB of text each. */
async function seedRun(handle: DatabaseHandle, owner: string, r: number, pages: number): Promise<void> {
  await handle.db.execute(sql`
    with run as (
      insert into runs (owner_id, question, status) values (${owner}, ${`Stored text ${r}?`}, 'completed')
      returning id
    )
    insert into sources (run_id, url, normalized_url, title, content)
    select run.id, 'https://pages.example/' || ${r} || '/' || g, 'https://pages.example/' || ${r} || '/' || g,
           'Page ' || g, repeat(md5(${owner} || ${r} || '-' || g), ${REPEATS})
    from run, generate_series(1, ${pages}) g`);
}

async function seed(handle: DatabaseHandle): Promise<void> {
  for (let r = 0; r < RUNS; r++) await seedRun(handle, OWNER, r, SOURCES_PER_RUN);
  await seedRun(handle, WARM_OWNER, 0, 5);
}

/** A seeded database and the environment a process needs to open it. */
async function seededDatabase(): Promise<{ env: Record<string, string>; remove: () => Promise<void> }> {
  const pgUrl = process.env.TEST_DATABASE_URL;
  if (pgUrl) {
    const fresh = await createFreshPostgresDatabase(pgUrl);
    const handle = await openDatabase({ url: fresh.url, poolSize: 2 });
    await migrateDatabase(handle);
    await seed(handle);
    expect(await sourceTextBytesOf(handle.db, OWNER)).toBe(200 * MB);
    await handle.close();
    return { env: { DATABASE_URL: fresh.url }, remove: fresh.drop };
  }
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "dr-export-memory-"));
  seedDataDir(dataDir);
  const handle = await openDatabase({ dataDir });
  await migrateDatabase(handle);
  await seed(handle);
  expect(await sourceTextBytesOf(handle.db, OWNER)).toBe(200 * MB);
  await handle.close();
  return {
    env: { DATABASE_URL: "", DATA_DIR: dataDir },
    remove: async () => fs.rmSync(dataDir, { recursive: true, force: true }),
  };
}

interface Measured {
  baselineRss: number;
  sampledPeak: number;
  maxRssBefore: number;
  maxRssAfter: number;
  compressed: number;
  archived: number;
  ms: number;
}

function exportInChild(env: Record<string, string>): Promise<Measured> {
  const child = spawn(
    process.execPath,
    ["--expose-gc", path.join(import.meta.dirname, "support", "export-memory-child.ts")],
    {
      env: { ...process.env, ...env, EXPORT_OWNER: OWNER, WARM_OWNER },
      stdio: ["ignore", "pipe", "pipe"],
    },
  );
  let out = "";
  let err = "";
  child.stdout.on("data", (d) => {
    out += d;
  });
  child.stderr.on("data", (d) => {
    err += d;
  });
  return new Promise((resolve, reject) => {
    child.on("error", reject);
    child.on("exit", (code) => {
      const line = out.trim().split("\n").at(-1) ?? "";
      if (code !== 0 || !line.startsWith("{"))
        reject(new Error(`export child exited ${code}:\n${out}\n${err}`));
      else resolve(JSON.parse(line) as Measured);
    });
  });
}

describe("exporting an account with 200 MB of stored source text", () => {
  it("streams it: the process's peak RSS rises by at most 100 MB", { timeout: 600_000 }, async () => {
    const db = await seededDatabase();
    try {
      const m = await exportInChild(db.env);
      const rise = { sampled: m.sampledPeak - m.baselineRss, peak: m.maxRssAfter - m.maxRssBefore };
      console.log(
        `export of 200 MB: RSS ${Math.round(m.baselineRss / MB)} MB before, sampled peak +${Math.round(rise.sampled / MB)} MB, kernel peak +${Math.round(rise.peak / MB)} MB; ${Math.round(m.compressed / MB)} MB gzipped in ${m.ms} ms`,
      );
      // Everything was in it: the tar holds the 200 MB of text (and the rest of the records).
      expect(m.archived).toBeGreaterThan(200 * MB);
      expect(rise.sampled).toBeLessThanOrEqual(100 * MB);
      expect(rise.peak).toBeLessThanOrEqual(100 * MB);
    } finally {
      await db.remove();
    }
  });
});
