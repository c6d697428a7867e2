/** How run events go over Server-Sent Events: one block per event, and one chunk per read of rows. */
import type { RunEvent } from "../../db/schema.ts";
import { type ResearchEventType, terminalEventTypes } from "../research/ui.ts";

export function formatSse(seq: number | null, type: string, data: unknown): string {
  return `${seq === null ? "" : `id: ${seq}\n`}event: ${type}\ndata: ${JSON.stringify(data)}\n\n`;
}

/** A stored event as its SSE block: the id is its seq, the data its payload with type, seq and time. */
export function formatRow(e: RunEvent): string {
  return formatSse(e.seq, e.type, { ...e.payload, type: e.type, seq: e.seq, at: e.createdAt });
}

export const isTerminalRow = (e: RunEvent) => terminalEventTypes.has(e.type as ResearchEventType);

/** What one read sends its viewers: its rows' SSE blocks in one chunk, up to the terminal event. */
export interface EncodedRows {
  bytes: Uint8Array;
  /** The seq of the last row sent (the viewers' new cursor). */
  lastSeq: number;
  /** The last row sent is the run's terminal event: the stream ends after it. */
  terminal: boolean;
}

const encoder = new TextEncoder();

/**
 * The rows one read brought, as one chunk: a burst of events costs each viewer one socket write,
 * not one per event (a write per viewer per event is what grows the delay to the last of many).
 */
export function encodedRows(
  rows: readonly RunEvent[],
  format: (row: RunEvent) => string = formatRow,
  isTerminal: (row: RunEvent) => boolean = isTerminalRow,
): EncodedRows | undefined {
  if (!rows.length) return undefined;
  const end = rows.findIndex(isTerminal);
  const sent = end < 0 ? rows : rows.slice(0, end + 1);
  return {
    bytes: encoder.encode(sent.map(format).join("")),
    lastSeq: sent[sent.length - 1].seq,
    terminal: end >= 0,
  };
}

export const encodeText = (text: string) => encoder.encode(text);
