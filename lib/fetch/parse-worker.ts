/**
 * Worker-thread entry of extractInWorker (isolated-extract.ts): turns one fetched resource into
 * text, so a large or hostile document parses off the server's event loop and can be stopped by
 * ending the thread. The threads live in a pool and take one document after another. Loaded by path
 * from the project root, next to the module it runs, because the bundled server cannot hand a
 * worker its own code.
 */
import { ExtractionError, type ExtractOptions, extractDocument } from "./extract.ts";
import type { FetchedResource } from "./safe-fetch.ts";

export default async function parse(task: { resource: FetchedResource; options: ExtractOptions }) {
  try {
    return { ok: true, doc: await extractDocument(task.resource, task.options) };
  } catch (e) {
    return {
      ok: false,
      reason: e instanceof ExtractionError ? e.reason : "unreadable",
      message: e instanceof Error ? e.message : String(e),
      details: e instanceof ExtractionError ? e.details : {},
    };
  }
}
