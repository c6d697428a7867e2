/**
 * Worker-thread entry of extractInWorker (isolated-extract.ts): turns one fetched resource into
 * text and posts the result back, so a large or hostile document parses off the server's event
 * loop and can be stopped by terminating the thread. Loaded by path from the project root, next
 * to the module it runs, because the bundled server cannot hand a worker its own code.
 */
import { parentPort, workerData } from "node:worker_threads";
import { ExtractionError, type ExtractOptions, extractDocument } from "./extract.ts";
import type { FetchedResource } from "./safe-fetch.ts";

const { resource, options } = workerData as { resource: FetchedResource; options: ExtractOptions };

try {
  const doc = await extractDocument(resource, options);
  parentPort?.postMessage({ ok: true, doc });
} catch (e) {
  parentPort?.postMessage({
    ok: false,
    reason: e instanceof ExtractionError ? e.reason : "unreadable",
    message: e instanceof Error ? e.message : String(e),
  });
}
