import { describe, expect, it, vi } from "vitest";
import type { RunEvent } from "../../db/schema.ts";
import { encodedRows } from "./shared-reads.ts";

const row = (seq: number, type: string) =>
  ({ runId: "r", seq, type, payload: {}, createdAt: new Date(0) }) as unknown as RunEvent;
const encode = (e: RunEvent) => `id: ${e.seq}\nevent: ${e.type}\n\n`;
const text = (b: Uint8Array | string) => (typeof b === "string" ? b : new TextDecoder().decode(b));
const isTerminal = (e: RunEvent) => e.type === "run.completed";

describe("encodedRows", () => {
  it("sends a burst of rows as one chunk, in order, and moves the cursor to the last", () => {
    const rows = [row(4, "phase.started"), row(5, "phase.completed"), row(6, "phase.started")];
    const out = encodedRows(rows, encode, isTerminal);
    expect(text(out?.bytes ?? new Uint8Array())).toBe(rows.map((r) => text(encode(r))).join(""));
    expect(out).toMatchObject({ lastSeq: 6, terminal: false });
  });

  it("stops at the terminal event", () => {
    const rows = [row(7, "phase.completed"), row(8, "run.completed"), row(9, "phase.started")];
    const out = encodedRows(rows, encode, isTerminal);
    expect(text(out?.bytes ?? new Uint8Array())).toBe(`${text(encode(rows[0]))}${text(encode(rows[1]))}`);
    expect(out).toMatchObject({ lastSeq: 8, terminal: true });
  });

  it("encodes a shared read once, however many viewers send it", () => {
    const rows = [row(1, "run.created"), row(2, "run.started")];
    const counted = vi.fn(encode);
    const first = encodedRows(rows, counted, isTerminal);
    for (let i = 0; i < 50; i++) expect(encodedRows(rows, counted, isTerminal)).toBe(first);
    expect(counted).toHaveBeenCalledTimes(2);
  });

  it("has nothing to send for no rows", () => {
    expect(encodedRows([], encode, isTerminal)).toBeUndefined();
  });
});
