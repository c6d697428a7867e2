import { describe, expect, it } from "vitest";
import { parseSse } from "../../e2e/support/sse.ts";
import { deliveriesOf, toDelivery } from "./sse-viewer.ts";

describe("toDelivery", () => {
  it("takes seq, type and the commit time from an event's data", () => {
    const wire =
      'retry: 2000\n\nid: 3\nevent: phase.started\ndata: {"phase":"brief","type":"phase.started","seq":3,"at":"2026-01-01T00:00:00.250Z"}\n\n';
    const { blocks } = parseSse(wire);
    expect(toDelivery(blocks[1].data, 1_767_225_600_300)).toEqual({
      seq: 3,
      type: "phase.started",
      at: Date.parse("2026-01-01T00:00:00.250Z"),
      receivedAt: 1_767_225_600_300,
    });
  });
  it("skips blocks that are not stored events (report deltas carry no seq)", () => {
    expect(toDelivery('{"text":"abc"}', 1)).toBeUndefined();
    expect(toDelivery(undefined, 1)).toBeUndefined();
  });
});

describe("deliveriesOf", () => {
  it("stamps each block with the arrival of the chunk that completes it, across chunk boundaries", () => {
    const block = (seq: number) =>
      `id: ${seq}\nevent: phase.started\ndata: {"type":"phase.started","seq":${seq},"at":"2026-01-01T00:00:00.000Z"}\n\n`;
    const two = block(2);
    const chunks = [
      { text: `retry: 2000\n\n${block(1)}${two.slice(0, 20)}`, receivedAt: 10 },
      { text: two.slice(20), receivedAt: 25 },
      { text: ": heartbeat\n\n", receivedAt: 30 },
    ];
    expect(deliveriesOf(chunks).map((d) => [d.seq, d.receivedAt])).toEqual([
      [1, 10],
      [2, 25],
    ]);
  });
});
