// The live SSE connections gauge: up while a stream is open, down once it ends, whichever way.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { DatabaseHandle } from "../../../db/client.ts";
import { appendEvent } from "../../../db/queries/events.ts";
import { createRun } from "../../../db/queries/runs.ts";
import { openMigratedPglite } from "../../../test/support/db-template.ts";
import { metrics } from "../../telemetry/metrics.ts";
import { runEventStream } from "./event-stream.ts";

let h: DatabaseHandle;
beforeAll(async () => {
  h = await openMigratedPglite();
});
afterAll(async () => {
  await h.close();
});

const open = async () => (await metrics().sseConnections.get()).values[0]?.value ?? 0;

describe("deep_research_sse_connections", () => {
  it("counts open streams and uncounts them when the client leaves or the run ends", async () => {
    const run = await createRun(h.db, { ownerId: "o", question: "q?", settings: {} });
    await appendEvent(h.db, run.id, { type: "run.created", question: "q?", settings: {} });
    const leaving = new AbortController();
    const first = runEventStream({
      db: h.db,
      runId: run.id,
      afterSeq: 0,
      signal: leaving.signal,
      pollMs: 20,
    });
    const second = runEventStream({
      db: h.db,
      runId: run.id,
      afterSeq: 0,
      signal: new AbortController().signal,
      pollMs: 20,
    });
    const readers = [first.getReader(), second.getReader()];
    await Promise.all(readers.map((r) => r.read()));
    expect(await open()).toBe(2);

    // The first client goes away.
    leaving.abort();
    await readers[0].cancel();
    await new Promise((r) => setTimeout(r, 60));
    expect(await open()).toBe(1);

    // The run ends: the second stream closes after the terminal event.
    await appendEvent(h.db, run.id, { type: "run.cancelled", reason: "cancelled by the user" });
    for (;;) if ((await readers[1].read()).done) break;
    expect(await open()).toBe(0);
  });
});
