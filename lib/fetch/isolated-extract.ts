/**
 * extractDocument in a worker thread, with a time cap and a page cap. PDF and HTML parsing is CPU
 * work that would otherwise run on the event loop and stall every stream and request of the
 * process; in a worker it runs beside them, and past PARSE_TIMEOUT_MS the thread is terminated,
 * whatever the parser is doing. Plain text needs no parser and is extracted in place.
 */
import path from "node:path";
import { Worker } from "node:worker_threads";
import { type Env, envNumber } from "../env.ts";
import {
  type ExtractedDocument,
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
  | { ok: false; reason: ExtractionFailure; message: string };

export function extractInWorker(
  res: FetchedResource,
  limits: ParseLimits,
  signal?: AbortSignal,
): Promise<ExtractedDocument> {
  signal?.throwIfAborted();
  return new Promise((resolve, reject) => {
    const worker = new Worker(/*turbopackIgnore: true*/ parseWorkerFile(), {
      workerData: { resource: res, options: { maxPdfPages: limits.maxPdfPages } },
      resourceLimits: { maxOldGenerationSizeMb: WORKER_HEAP_MB },
    });
    let timer: NodeJS.Timeout | undefined;
    let settled = false;
    const settle = (outcome: () => void) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      signal?.removeEventListener("abort", onAbort);
      void worker.terminate();
      outcome();
    };
    const fail = (message: string, reason: ExtractionFailure, cause?: unknown) =>
      settle(() => reject(new ExtractionError(res.url, message, cause, reason)));
    const onAbort = () => settle(() => reject(signal?.reason));
    signal?.addEventListener("abort", onAbort, { once: true });

    worker.once("online", () => {
      timer = setTimeout(
        () =>
          fail(
            `Reading the document took longer than ${seconds(limits.timeoutMs)}; it was stopped.`,
            "timeout",
          ),
        limits.timeoutMs,
      );
    });
    worker.once("message", (m: WorkerAnswer) => {
      if (m.ok) settle(() => resolve(m.doc));
      else fail(m.message, m.reason);
    });
    worker.once("error", (e: Error & { code?: string }) => {
      if (e.code === "ERR_WORKER_OUT_OF_MEMORY") {
        fail("The document needs more memory to read than a parse may use.", "too_large", e);
      } else {
        fail(`Could not read the document: ${e.message}`, "unreadable", e);
      }
    });
    worker.once("exit", (code) =>
      fail(`The document parser stopped unexpectedly (exit code ${code}).`, "unreadable"),
    );
  });
}

function seconds(ms: number): string {
  return ms >= 1000 ? `${Math.round(ms / 100) / 10} s` : `${ms} ms`;
}
