/**
 * A gzip-compressed tar (POSIX ustar), written as it is read, for "Export my data": tar.gz opens
 * with the tools every system has, and writing it needs only node:zlib. Names are ASCII and at most
 * 100 bytes (the export makes them so); sizes fit ustar's 8 GiB.
 *
 * A tar entry's size comes before its bytes, so an entry that is written piece by piece (a run's
 * JSON, its sources read a few at a time) is spooled to a temporary file first: memory holds a few
 * pieces at a time, never the account.
 *
 * @internal to lib/server/accounts/: a helper of its actions, not an action; adapters do not import it.
 */
import { once } from "node:events";
import fs from "node:fs";
import path from "node:path";
import { Readable } from "node:stream";
import { pipeline } from "node:stream/promises";
import { createGzip } from "node:zlib";
import { log } from "../../telemetry/log.ts";

export interface ArchiveEntry {
  name: string;
  /** Bytes of `body`, exactly. */
  size: number;
  body: AsyncIterable<Uint8Array>;
}

const BLOCK = 512;
const encoder = new TextEncoder();

function field(header: Buffer, offset: number, length: number, value: string): void {
  header.write(value.slice(0, length), offset, length, "ascii");
}

/** A number as ustar writes it: zero-padded octal, ending in NUL. */
function octal(n: number, length: number): string {
  return `${n.toString(8).padStart(length - 1, "0")}\0`;
}

function header(name: string, size: number, mtime: Date): Buffer {
  if (Buffer.byteLength(name) > 100 || !/^[\x20-\x7e]+$/.test(name)) {
    throw new Error(`archive entry name not storable in ustar: ${name}`);
  }
  const h = Buffer.alloc(BLOCK);
  field(h, 0, 100, name);
  field(h, 100, 8, octal(0o644, 8));
  field(h, 108, 8, octal(0, 8));
  field(h, 116, 8, octal(0, 8));
  field(h, 124, 12, octal(size, 12));
  field(h, 136, 12, octal(Math.floor(mtime.getTime() / 1000), 12));
  field(h, 148, 8, "        "); // the checksum counts its own field as spaces
  field(h, 156, 1, "0");
  field(h, 257, 6, "ustar\0");
  field(h, 263, 2, "00");
  let sum = 0;
  for (const byte of h) sum += byte;
  field(h, 148, 8, `${sum.toString(8).padStart(6, "0")}\0 `);
  return h;
}

/** A small entry held in memory (a report's Markdown). */
export function memoryEntry(name: string, content: string): ArchiveEntry {
  const bytes = encoder.encode(content);
  return {
    name,
    size: bytes.byteLength,
    body: (async function* () {
      yield bytes;
    })(),
  };
}

/**
 * An entry written piece by piece into a file of `dir`; its body reads the file back and deletes it
 * once read (or given up on).
 */
export async function spooledEntry(
  dir: string,
  name: string,
  pieces: AsyncIterable<string>,
): Promise<ArchiveEntry> {
  const file = path.join(dir, `${spooled++}.part`);
  const out = fs.createWriteStream(file);
  try {
    for await (const piece of pieces) {
      if (!out.write(piece)) await once(out, "drain");
    }
  } finally {
    out.end();
    await once(out, "close");
  }
  const { size } = await fs.promises.stat(file);
  return {
    name,
    size,
    body: (async function* () {
      try {
        yield* fs.createReadStream(file) as AsyncIterable<Buffer>;
      } finally {
        await fs.promises.rm(file, { force: true });
      }
    })(),
  };
}
let spooled = 0;

async function* tarBytes(entries: AsyncIterable<ArchiveEntry>, mtime: Date): AsyncGenerator<Uint8Array> {
  for await (const entry of entries) {
    yield header(entry.name, entry.size, mtime);
    let written = 0;
    for await (const chunk of entry.body) {
      written += chunk.byteLength;
      yield chunk;
    }
    if (written !== entry.size) {
      throw new Error(`archive entry ${entry.name} had ${written} bytes, not the ${entry.size} announced`);
    }
    const pad = (BLOCK - (entry.size % BLOCK)) % BLOCK;
    if (pad) yield Buffer.alloc(pad);
  }
  yield Buffer.alloc(BLOCK * 2); // end of archive: two empty blocks
}

/**
 * The entries as one .tar.gz stream, produced as it is read: an entry is asked for when the one
 * before it has been written. A failure or a reader that goes away destroys the stream.
 */
export function tarGzStream(entries: AsyncIterable<ArchiveEntry>, mtime = new Date()): Readable {
  const gzip = createGzip();
  const tar = Readable.from(tarBytes(entries, mtime), { objectMode: false, highWaterMark: 64 * 1024 });
  pipeline(tar, gzip).catch((err: unknown) => {
    // pipeline has destroyed both streams: the reader sees the download fail, not a short archive.
    if ((err as { code?: string })?.code !== "ERR_STREAM_PREMATURE_CLOSE") {
      log("server").error({ err }, "an account export failed while it was written");
    }
  });
  return gzip;
}
