// Test-only: run in a child process by test/account-export-memory.test.ts. Opens the database the
// parent seeded (DATABASE_URL, else embedded PGlite in DATA_DIR on its own thread, as the app runs
// it), exports WARM_OWNER's account, then EXPORT_OWNER's, the way GET /api/account/export does,
// reads each archive to its end (gunzipped, its bytes counted) and prints what the process's memory
// did during the second, as JSON. Run with --expose-gc, so the baseline is taken after a collection.
import { resourceUsage } from "node:process";
import { createGunzip } from "node:zlib";
import { migrateDatabase, openDatabase } from "../../db/client.ts";
import { createRunBus } from "../../lib/jobs/bus.ts";
import { openAccountExport } from "../../lib/server/accounts/export.ts";

const owner = process.env.EXPORT_OWNER as string;
const handle = process.env.DATABASE_URL
  ? await openDatabase({ url: process.env.DATABASE_URL })
  : await openDatabase({ dataDir: process.env.DATA_DIR, thread: true });
await migrateDatabase(handle);
const bus = await createRunBus(handle);
const rt = { handle, bus };

// A process that has done this kind of work before, as a server that has been up a while has:
// everything the export touches is loaded (modules, connections, PGlite's catalog), and V8 has sized
// its heaps to what it saw (a young heap lets garbage grow before its first full collections).
await drain(
  await openAccountExport(rt, process.env.WARM_OWNER as string, { RATE_LIMIT_EXPORTS_PER_HOUR: "0" }),
);
(globalThis as { gc?: () => void }).gc?.();
await new Promise((r) => setTimeout(r, 200));

const baselineRss = process.memoryUsage.rss();
const maxRssBefore = resourceUsage().maxRSS * 1024;
let sampledPeak = baselineRss;
const sampler = setInterval(() => {
  sampledPeak = Math.max(sampledPeak, process.memoryUsage.rss());
}, 5);
const started = Date.now();
const { compressed, archived } = await drain(
  await openAccountExport(rt, owner, { RATE_LIMIT_EXPORTS_PER_HOUR: "0" }),
);
clearInterval(sampler);
sampledPeak = Math.max(sampledPeak, process.memoryUsage.rss());
const maxRssAfter = resourceUsage().maxRSS * 1024;

console.log(
  JSON.stringify({
    baselineRss,
    sampledPeak,
    maxRssBefore,
    maxRssAfter,
    compressed,
    archived,
    ms: Date.now() - started,
  }),
);
await bus.close();
await handle.close();

/** Reads the archive to its end: its size, and the size of the tar inside. */
async function drain(stream: ReadableStream<Uint8Array>): Promise<{ compressed: number; archived: number }> {
  let compressed = 0;
  let archived = 0;
  const gunzip = createGunzip();
  gunzip.on("data", (chunk: Buffer) => {
    archived += chunk.byteLength;
  });
  const ended = new Promise((resolve, reject) => gunzip.on("end", resolve).on("error", reject));
  for await (const chunk of stream) {
    compressed += chunk.byteLength;
    if (!gunzip.write(chunk)) await new Promise((r) => gunzip.once("drain", r));
  }
  gunzip.end();
  await ended;
  return { compressed, archived };
}
