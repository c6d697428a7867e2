import { describe, expect, it } from "vitest";
import type { RunEvent } from "../../db/schema.ts";
import { encodedRows } from "./sse-encoding.ts";

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

  it("formats a stored row with its seq as the SSE id and its payload, type, seq and time as data", () => {
    const e = {
      runId: "r",
      seq: 3,
      type: "phase.started",
      payload: { phase: "brief" },
      createdAt: new Date(0),
    };
    const out = encodedRows([e as unknown as RunEvent]);
    expect(text(out?.bytes ?? new Uint8Array())).toBe(
      `id: 3\nevent: phase.started\ndata: ${JSON.stringify({ phase: "brief", type: "phase.started", seq: 3, at: new Date(0) })}\n\n`,
    );
    expect(out?.terminal).toBe(false);
    expect(encodedRows([{ ...e, seq: 4, type: "run.failed" } as unknown as RunEvent])?.terminal).toBe(true);
  });

  it("has nothing to send for no rows", () => {
    expect(encodedRows([], encode, isTerminal)).toBeUndefined();
  });
});
