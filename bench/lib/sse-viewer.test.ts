import { describe, expect, it } from "vitest";
import { parseSse } from "../../e2e/support/sse.ts";
import { toDelivery } from "./sse-viewer.ts";

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
