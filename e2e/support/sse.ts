/**
 * Server-Sent Events as they travel on the wire. The contract tests check the stream's shape
 * itself (which lines each block carries), so they read raw blocks here instead of trusting a
 * client library that would smooth over a missing `id:` or a non-JSON `data:`.
 *
 * The format: blocks end with a blank line; each line is `field: value` (one space after the colon
 * is dropped), a line starting with ":" is a comment (our heartbeats), and several `data:` lines
 * join with "\n". Lines may end with CRLF, LF or CR.
 */

export interface SseBlock {
  /** The block's text, for failure messages. */
  raw: string;
  id?: string;
  event?: string;
  /** The `data:` lines joined with "\n"; undefined when the block has none. */
  data?: string;
  retry?: string;
  comments: string[];
}

export function parseSseBlock(raw: string): SseBlock {
  const block: SseBlock = { raw, comments: [] };
  for (const line of raw.split(/\r\n|\r|\n/)) {
    if (line === "") continue;
    if (line.startsWith(":")) {
      block.comments.push(line.slice(1).trimStart());
      continue;
    }
    const colon = line.indexOf(":");
    const field = colon < 0 ? line : line.slice(0, colon);
    const value = colon < 0 ? "" : line.slice(colon + 1).replace(/^ /, "");
    if (field === "data") block.data = block.data === undefined ? value : `${block.data}\n${value}`;
    else if (field === "id" || field === "event" || field === "retry") block[field] = value;
  }
  return block;
}

/** Splits text into complete blocks; `rest` is an unfinished block still waiting for its blank line. */
export function parseSse(text: string): { blocks: SseBlock[]; rest: string } {
  const parts = text.split(/\r\n\r\n|\n\n|\r\r/);
  const rest = parts.pop() ?? "";
  return { blocks: parts.filter((p) => p.trim() !== "").map(parseSseBlock), rest };
}

/** A block that is an event (not a `retry:` hint or a comment-only heartbeat). */
export function isEventBlock(b: SseBlock): boolean {
  return b.id !== undefined || b.event !== undefined || b.data !== undefined;
}

export interface SseReading {
  status: number;
  contentType: string;
  blocks: SseBlock[];
  /** The server ended the stream (rather than the reader giving up at its deadline). */
  closed: boolean;
}

/**
 * Reads an event stream until the server closes it or `timeoutMs` passes, whichever is first.
 * A run's stream closes by itself after the terminal event, so `closed` is part of what is checked.
 */
export async function readSse(
  url: string,
  headers: Record<string, string> = {},
  timeoutMs = 90_000,
): Promise<SseReading> {
  const ctrl = new AbortController();
  const timer = setTimeout(() => ctrl.abort(), timeoutMs);
  try {
    const res = await fetch(url, {
      headers: { accept: "text/event-stream", ...headers },
      signal: ctrl.signal,
    });
    const reading: SseReading = {
      status: res.status,
      contentType: res.headers.get("content-type") ?? "",
      blocks: [],
      closed: false,
    };
    if (!res.body) return { ...reading, closed: true };
    const decoder = new TextDecoder();
    let buffer = "";
    const reader = res.body.getReader();
    try {
      for (;;) {
        const { value, done } = await reader.read();
        if (done) break;
        buffer += decoder.decode(value, { stream: true });
        const { blocks, rest } = parseSse(buffer);
        reading.blocks.push(...blocks);
        buffer = rest;
      }
      reading.closed = true;
    } catch (e) {
      if (!ctrl.signal.aborted) throw e;
    }
    return reading;
  } finally {
    clearTimeout(timer);
  }
}
