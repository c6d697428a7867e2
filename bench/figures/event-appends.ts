/**
 * Event appends are the hottest write of a run (every step is an event, seqs must stay gapless):
 * sequential vs concurrent appends on embedded PGlite and, when a PostgreSQL URL is given, on it.
 * Printed for information; the run-level figures are what the targets hold.
 */
import { performance } from "node:perf_hooks";
import { type DatabaseHandle, migrateDatabase, openDatabase } from "../../db/client.ts";
import { appendEvent } from "../../db/queries/events.ts";
import { createRun } from "../../db/queries/runs.ts";
import { openFreshPostgres } from "../../test/databases.ts";
import type { Benchmark, Figure } from "../lib/figure.ts";

async function appendsPerSecond(handle: DatabaseHandle, concurrency: number, n: number): Promise<number> {
  const run = await createRun(handle.db, { ownerId: "bench", question: "bench", settings: {} });
  const t0 = performance.now();
  let next = 0;
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next < n) {
        next++;
        await appendEvent(handle.db, run.id, {
          type: "researcher.search",
          directiveId: "bench",
          query: `q${next}`,
        });
      }
    }),
  );
  return n / ((performance.now() - t0) / 1000);
}

export const benchmark: Benchmark = {
  id: "event-appends",
  run: (ctx) => measureEventAppends({ postgresUrl: ctx.postgresUrl, events: ctx.quick ? 100 : 500 }),
};

async function measureEventAppends(opts: { postgresUrl?: string; events: number }): Promise<Figure[]> {
  const n = opts.events;
  const targets: { name: string; open: () => Promise<DatabaseHandle> }[] = [
    {
      name: "embedded",
      open: async () => {
        const h = await openDatabase({ dataDir: null });
        await migrateDatabase(h);
        return h;
      },
    },
  ];
  if (opts.postgresUrl) {
    const url = opts.postgresUrl;
    targets.push({ name: "postgres", open: () => openFreshPostgres(url) });
  }
  const figures: Figure[] = [];
  for (const t of targets) {
    const h = await t.open();
    try {
      await appendsPerSecond(h, 1, n); // warm-up
      const sequential = await appendsPerSecond(h, 1, n);
      const concurrent = await appendsPerSecond(h, 8, n);
      figures.push({
        id: `event-appends-${t.name}`,
        name: `event appends, ${t.name} (8 concurrent ÷ sequential)`,
        value: concurrent / sequential,
        unit: "×",
        target: "",
        pass: null,
        details: { events: n, sequentialPerSecond: sequential, concurrentPerSecond: concurrent },
      });
    } finally {
      await h.close();
    }
  }
  return figures;
}
