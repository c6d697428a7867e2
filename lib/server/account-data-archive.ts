/**
 * A gzip-compressed tar (POSIX ustar) of in-memory files, for "Export my data": tar.gz opens with
 * the tools every system has, and writing it needs only node:zlib. Names are ASCII and at most
 * 100 bytes (the export makes them so); sizes fit ustar's 8 GiB.
 */
import { promisify } from "node:util";
import { gzip } from "node:zlib";

export interface ArchiveFile {
  name: string;
  content: string | Uint8Array;
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

/** The files as one .tar.gz. */
export async function tarGz(files: ArchiveFile[], mtime = new Date()): Promise<Buffer> {
  const parts: Buffer[] = [];
  for (const file of files) {
    const body = typeof file.content === "string" ? encoder.encode(file.content) : file.content;
    parts.push(header(file.name, body.byteLength, mtime), Buffer.from(body));
    const pad = (BLOCK - (body.byteLength % BLOCK)) % BLOCK;
    if (pad) parts.push(Buffer.alloc(pad));
  }
  parts.push(Buffer.alloc(BLOCK * 2)); // end of archive: two empty blocks
  return promisify(gzip)(Buffer.concat(parts));
}
