/**
 * `npm run bench`: measures side by side in one run and prints ratios, never absolute pass/fail.
 * Event appends are the hottest write of a run (every step is an event, seqs must stay gapless),
 * so this compares sequential vs concurrent appends on embedded PGlite and, when
 * BENCH_DATABASE_URL (or TEST_DATABASE_URL) is set, on a real PostgreSQL.
 */
import { performance } from "node:perf_hooks";
import { type DatabaseHandle, migrateDatabase, openDatabase } from "../db/client.ts";
import { appendEvent } from "../db/queries/events.ts";
import { createRun } from "../db/queries/runs.ts";
import { openFreshPostgres } from "../test/databases.ts";

const N = Number(process.env.BENCH_EVENTS ?? 500);

async function measure(handle: DatabaseHandle, concurrency: number): Promise<number> {
  const run = await createRun(handle.db, { ownerId: "bench", question: "bench", settings: {} });
  const t0 = performance.now();
  let next = 0;
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next < N) {
        next++;
        await appendEvent(handle.db, run.id, {
          type: "researcher.search",
          directiveId: "bench",
          query: `q${next}`,
        });
      }
    }),
  );
  return N / ((performance.now() - t0) / 1000);
}

const targets: { name: string; open: () => Promise<DatabaseHandle> }[] = [
  {
    name: "pglite",
    open: async () => {
      const h = await openDatabase({ dataDir: null });
      await migrateDatabase(h);
      return h;
    },
  },
];
const pgUrl = process.env.BENCH_DATABASE_URL || process.env.TEST_DATABASE_URL;
if (pgUrl) targets.push({ name: "postgres", open: () => openFreshPostgres(pgUrl) });
else console.log("(set BENCH_DATABASE_URL to include a real PostgreSQL)");

const results: Record<string, Record<string, number>> = {};
for (const t of targets) {
  const h = await t.open();
  try {
    await measure(h, 1); // warm-up
    results[t.name] = { sequential: await measure(h, 1), concurrent8: await measure(h, 8) };
  } finally {
    await h.close();
  }
}
console.log(`event appends, ${N} per measurement (events/second):`);
for (const [name, r] of Object.entries(results)) {
  console.log(
    `  ${name.padEnd(9)} sequential ${r.sequential.toFixed(0).padStart(7)}  concurrent(8) ${r.concurrent8.toFixed(0).padStart(7)}  ratio concurrent/sequential ${(r.concurrent8 / r.sequential).toFixed(2)}`,
  );
}
if (results.pglite && results.postgres) {
  console.log(
    `  ratio postgres/pglite: sequential ${(results.postgres.sequential / results.pglite.sequential).toFixed(2)}, concurrent ${(results.postgres.concurrent8 / results.pglite.concurrent8).toFixed(2)}`,
  );
}
