/**
 * "Export my data" (issue 16) as one .tar.gz: per run `runs/<slug>-<id>.md` (the report Markdown,
 * Sources included, as report.md serves it) and `runs/<slug>-<id>.json` (the run, its sources,
 * events and directives), plus `knowledge.json` and `library.json`.
 *
 * Bounded (issue 27): the archive is streamed, run by run, and each run's sources and events are
 * read a few at a time (at most BATCH_BYTES of text, or a page of events) and written to a
 * temporary file until the entry's size is known — memory never holds the account, whatever it
 * stores. One export at a time per person, across every process on the database (a lease), and at
 * most RATE_LIMIT_EXPORTS_PER_HOUR of them.
 */
import { randomUUID } from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { Readable } from "node:stream";
import type { Db } from "../../../db/client.ts";
import {
  type ExportedRun,
  getDocumentsByIds,
  getKnowledgeByIds,
  getRunForExport,
  getRunReport,
  getSourcesByIds,
  listDocumentSizes,
  listKnowledgeSizes,
  listRunDirectives,
  listRunEventsAfter,
  listRunRefsOfOwner,
  listSourceSizes,
  type SizedRow,
} from "../../../db/queries/account-data.ts";
import type { Env } from "../../env.ts";
import { AppError } from "../../errors.ts";
import { holdLease } from "../leases.ts";
import { consumeRateLimit } from "../rate-limits.ts";
import type { Runtime } from "../runtime.ts";
import { type ArchiveEntry, memoryEntry, spooledEntry, tarGzStream } from "./export-archive.ts";

/** The most stored text read at once (a source or document larger than this is read alone). */
const BATCH_BYTES = 4 * 1024 * 1024;
const BATCH_ROWS = 200;
const EVENT_PAGE = 500;
/** Long texts are escaped and written this many characters at a time. */
const SLICE_CHARS = 64 * 1024;
/** How long an export's lease outlives a process that died while writing it. */
const LEASE_TTL_MS = 60_000;

/** A file-name-safe, ASCII, short form of the question ("what-is-pglite"). */
export function slugOf(text: string, max = 40): string {
  const slug = text
    .normalize("NFKD")
    .replace(/[\u0300-\u036f]/g, "")
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-+|-+$/g, "")
    .slice(0, max)
    .replace(/-+$/, "");
  return slug || "run";
}

export function exportFilename(now = new Date()): string {
  return `deep-research-export-${now.toISOString().slice(0, 10)}.tar.gz`;
}

/**
 * Everything the person owns as a .tar.gz stream, written as it is read. Refused 429 while another
 * export of theirs is being written, and past their hourly limit.
 */
export async function openAccountExport(
  rt: Runtime,
  ownerId: string,
  env: Env = process.env,
): Promise<ReadableStream<Uint8Array>> {
  const db = rt.handle.db;
  const lease = await holdLease(db, `export:${ownerId}`, LEASE_TTL_MS);
  if (!lease) {
    throw new AppError(
      "rate_limited",
      "An export of your account is already being prepared, and only one runs at a time. Wait for its download to finish, then try again.",
      { headers: { "retry-after": "30" }, details: { limit: "exports", concurrent: 1 } },
    );
  }
  let dir: string;
  try {
    await consumeRateLimit(rt.handle, "exports", `user:${ownerId}`, env);
    dir = await fs.promises.mkdtemp(path.join(os.tmpdir(), "deep-research-export-"));
  } catch (e) {
    await lease.release();
    throw e;
  }
  const archive = tarGzStream(accountEntries(db, ownerId, dir));
  archive.once("close", () => void fs.promises.rm(dir, { recursive: true, force: true }));
  return heldUntilRead(Readable.toWeb(archive) as ReadableStream<Uint8Array>, () => void lease.release());
}

/**
 * The stream as its reader sees it, with `done` called once the reader has had the last byte, given
 * up, or met an error. A small account's archive is written to its buffers before anyone reads it,
 * so the writer's end is not the end of the download: the lease lasts until the reader's end.
 */
function heldUntilRead(source: ReadableStream<Uint8Array>, done: () => void): ReadableStream<Uint8Array> {
  const reader = source.getReader();
  return new ReadableStream<Uint8Array>(
    {
      async pull(controller) {
        try {
          const next = await reader.read();
          if (next.done) {
            controller.close();
            done();
          } else controller.enqueue(next.value);
        } catch (err) {
          controller.error(err);
          done();
        }
      },
      cancel(reason) {
        done();
        return reader.cancel(reason);
      },
    },
    { highWaterMark: 0 },
  );
}

async function* accountEntries(db: Db, ownerId: string, dir: string): AsyncGenerator<ArchiveEntry> {
  for (const ref of await listRunRefsOfOwner(db, ownerId)) {
    const run = await getRunForExport(db, ref.id);
    if (!run) continue; // deleted while the export was written
    const base = `runs/${slugOf(run.question)}-${run.id}`;
    const report = await getRunReport(db, run.id);
    if (report) yield memoryEntry(`${base}.md`, report.markdown);
    yield await spooledEntry(dir, `${base}.json`, runJson(db, run));
  }
  const knowledge = inBatches(await listKnowledgeSizes(db, ownerId), (ids) => getKnowledgeByIds(db, ids));
  yield await spooledEntry(dir, "knowledge.json", withNewline(jsonArray(knowledge, 0)));
  const documents = inBatches(await listDocumentSizes(db, ownerId), (ids) => getDocumentsByIds(db, ids));
  yield await spooledEntry(dir, "library.json", withNewline(jsonArray(documents, 0)));
}

/** `{run, sources, events, directives}`, laid out as JSON.stringify(…, null, 2) lays it out. */
async function* runJson(db: Db, run: ExportedRun): AsyncGenerator<string> {
  yield `{\n  "run": ${pretty(run, 1)},\n  "sources": `;
  const sizes = await listSourceSizes(db, run.id);
  yield* jsonArray(
    inBatches(sizes, (ids) => getSourcesByIds(db, ids)),
    1,
  );
  yield `,\n  "events": `;
  yield* jsonArray(eventsOf(db, run.id), 1);
  yield `,\n  "directives": ${pretty(await listRunDirectives(db, run.id), 1)}\n}\n`;
}

/** A value as JSON.stringify(value, null, 2) writes it `depth` levels down. */
function pretty(value: unknown, depth: number): string {
  return JSON.stringify(value, null, 2).replaceAll("\n", `\n${"  ".repeat(depth)}`);
}

/**
 * A row as pretty() writes it, in pieces: a long text (a page's, a document's) is written a slice
 * at a time, so no copy of it is made whole (escaping it, indenting it, encoding it for the file).
 */
function* prettyPieces(row: object, depth: number): Generator<string> {
  const long = Object.entries(row).filter(([, v]) => typeof v === "string" && v.length > SLICE_CHARS);
  if (!long.length) {
    yield pretty(row, depth);
    return;
  }
  // Where each long text goes: a random token JSON.stringify writes as it is.
  const token = randomUUID();
  const marked = pretty({ ...row, ...Object.fromEntries(long.map(([k], i) => [k, `${token}-${i}`])) }, depth);
  let rest = marked;
  for (const [i, [, text]] of long.entries()) {
    const [before, after] = rest.split(`"${token}-${i}"`);
    yield `${before}"`;
    yield* escapedSlices(text as string);
    yield '"';
    rest = after;
  }
  yield rest;
}

/** A text as JSON.stringify escapes it (without the quotes), a slice at a time. */
function* escapedSlices(text: string): Generator<string> {
  for (let at = 0; at < text.length; ) {
    let end = Math.min(text.length, at + SLICE_CHARS);
    // A surrogate pair stays in one slice: escaped apart, each half would become \uXXXX.
    const last = text.charCodeAt(end - 1);
    if (end < text.length && last >= 0xd800 && last <= 0xdbff) end--;
    yield JSON.stringify(text.slice(at, end)).slice(1, -1);
    at = end;
  }
}

/** An array written item by item, laid out as JSON.stringify(array, null, 2) `depth` levels down. */
async function* jsonArray(items: AsyncIterable<object>, depth: number): AsyncGenerator<string> {
  const inner = `\n${"  ".repeat(depth + 1)}`;
  let first = true;
  for await (const item of items) {
    yield `${first ? "[" : ","}${inner}`;
    yield* prettyPieces(item, depth + 1);
    first = false;
  }
  yield first ? "[]" : `\n${"  ".repeat(depth)}]`;
}

async function* withNewline(pieces: AsyncIterable<string>): AsyncGenerator<string> {
  yield* pieces;
  yield "\n";
}

/** Rows read a few at a time: ids whose text adds up to at most BATCH_BYTES (one at least). */
async function* inBatches<T>(sizes: SizedRow[], read: (ids: string[]) => Promise<T[]>): AsyncGenerator<T> {
  let ids: string[] = [];
  let bytes = 0;
  for (const row of sizes) {
    if (ids.length && (bytes + row.bytes > BATCH_BYTES || ids.length >= BATCH_ROWS)) {
      yield* await read(ids);
      ids = [];
      bytes = 0;
    }
    ids.push(row.id);
    bytes += row.bytes;
  }
  if (ids.length) yield* await read(ids);
}

async function* eventsOf(db: Db, runId: string) {
  for (let after = 0; ; ) {
    const page = await listRunEventsAfter(db, runId, after, EVENT_PAGE);
    yield* page;
    if (page.length < EVENT_PAGE) return;
    after = page[page.length - 1].seq;
  }
}
