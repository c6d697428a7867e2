/**
 * extractDocument in a worker thread, with a time cap and a page cap. PDF and HTML parsing is CPU
 * work that would otherwise run on the event loop and stall every stream and request of the
 * process; in a worker it runs beside them, and past PARSE_TIMEOUT_MS the thread is terminated,
 * whatever the parser is doing. Plain text needs no parser and is extracted in place.
 */

import { availableParallelism } from "node:os";
import path from "node:path";
import Piscina from "piscina";
import { type Env, envNumber } from "../env.ts";
import {
  type ExtractedDocument,
  type ExtractionDetails,
  ExtractionError,
  type ExtractionFailure,
  extractDocument,
} from "./extract.ts";
import type { FetchedResource, SafeFetchOptions } from "./safe-fetch.ts";
import { safeFetch } from "./safe-fetch.ts";

export interface ParseLimits {
  /** Wall-clock limit of one document's parse, from the moment its thread runs. */
  timeoutMs: number;
  /** PDFs with more pages are refused. */
  maxPdfPages: number;
}

export function parseLimitsFromEnv(env: Env = process.env): ParseLimits {
  return {
    timeoutMs: envNumber(env, "PARSE_TIMEOUT_MS", 30_000, { min: 1, integer: true }),
    maxPdfPages: envNumber(env, "PARSE_MAX_PDF_PAGES", 200, { min: 1, integer: true }),
  };
}

/** Heap of one parser thread: a document that needs more is refused instead of exhausting the process. */
const WORKER_HEAP_MB = 1024;

/**
 * The worker's entry, resolved from the project root at run time (the app is always started from
 * there, as for the migrations): inside the bundled server, a path relative to this module would
 * point into the build output, where the entry and the modules it imports do not exist.
 */
export function parseWorkerFile(): string {
  return path.join(/*turbopackIgnore: true*/ process.cwd(), "lib", "fetch", "parse-worker.ts");
}

const parsed = new Set(["text/html", "application/xhtml+xml", "application/pdf"]);

export async function extractIsolated(
  res: FetchedResource,
  limits: ParseLimits,
  signal?: AbortSignal,
): Promise<ExtractedDocument> {
  if (!parsed.has(res.contentType)) return extractDocument(res);
  return extractInWorker(res, limits, signal);
}

/** safeFetch, then the parse in a worker thread. Throws FetchRefusedError or ExtractionError. */
export async function fetchDocumentIsolated(
  url: string,
  limits: ParseLimits,
  opts: SafeFetchOptions = {},
): Promise<ExtractedDocument> {
  return extractIsolated(await safeFetch(url, opts), limits, opts.signal);
}

type WorkerAnswer =
  | { ok: true; doc: ExtractedDocument }
  | { ok: false; reason: ExtractionFailure; message: string; details?: ExtractionDetails };

// One pool per process: threads start once and stay (idle ones end after a while), so reading a
// page costs the parse, not a thread start, which costs far more (docs/performance.md).
let pool: Piscina | undefined;
const PARSE_THREADS = Math.max(2, Math.min(4, availableParallelism()));
function parsePool(): Piscina {
  pool ??= new Piscina({
    filename: parseWorkerFile(),
    // Every thread stays up with its parsers loaded, so no page a run reads pays for a thread start
    // and module load on the run's critical path (parallel researchers read at once).
    minThreads: PARSE_THREADS,
    maxThreads: PARSE_THREADS,
    idleTimeout: 60_000,
    resourceLimits: { maxOldGenerationSizeMb: WORKER_HEAP_MB },
  });
  return pool;
}

/** Starts the parse pool now (a worker calls it when it starts), instead of at the first page read. */
export function warmParsePool(): void {
  parsePool();
}

export async function extractInWorker(
  res: FetchedResource,
  limits: ParseLimits,
  signal?: AbortSignal,
): Promise<ExtractedDocument> {
  signal?.throwIfAborted();
  // Aborting a task ends its thread, whatever the parser is doing; the pool starts another.
  const timeout = AbortSignal.timeout(limits.timeoutMs);
  const stop = signal ? AbortSignal.any([signal, timeout]) : timeout;
  let answer: WorkerAnswer;
  try {
    answer = await parsePool().run(
      { resource: res, options: { maxPdfPages: limits.maxPdfPages } },
      { signal: stop },
    );
  } catch (e) {
    if (signal?.aborted) throw signal.reason;
    if (timeout.aborted) {
      throw new ExtractionError(
        res.url,
        `Reading the document took longer than ${seconds(limits.timeoutMs)}; it was stopped.`,
        e,
        "timeout",
        { limit: limits.timeoutMs },
      );
    }
    const code = (e as { code?: string }).code;
    if (code === "ERR_WORKER_OUT_OF_MEMORY") {
      throw new ExtractionError(
        res.url,
        "The document needs more memory to read than a parse may use.",
        e,
        "too_large",
      );
    }
    const detail = (e as Error).message;
    throw new ExtractionError(res.url, `Could not read the document: ${detail}`, e, "unreadable", {
      detail,
    });
  }
  if (answer.ok) return answer.doc;
  throw new ExtractionError(res.url, answer.message, undefined, answer.reason, answer.details);
}

function seconds(ms: number): string {
  return ms >= 1000 ? `${Math.round(ms / 100) / 10} s` : `${ms} ms`;
}
