/**
 * The run bus: a message reaches its own process at once and once, and (with PostgreSQL) every
 * other process once through NOTIFY. Two handles on one database stand for two processes.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type DatabaseHandle, openDatabase } from "../db/client.ts";
import { type BusMessage, createRunBus, type RunBus } from "../lib/jobs/bus.ts";
import { createFreshPostgresDatabase } from "./databases.ts";
import { openMigratedPglite } from "./support/db-template.ts";

const pgUrl = process.env.TEST_DATABASE_URL;

function heard(bus: RunBus, runId: string) {
  const got: BusMessage[] = [];
  bus.subscribe(runId, (m) => got.push(m));
  return got;
}
const settle = (ms = 300) => new Promise((r) => setTimeout(r, ms));

describe("run bus, embedded", () => {
  it("delivers a published message to the run's subscribers before publish returns, once", async () => {
    const h = await openMigratedPglite();
    const bus = await createRunBus(h);
    const got = heard(bus, "r1");
    const other = heard(bus, "r2");
    const publishing = bus.publish({ kind: "event", runId: "r1", seq: 1, type: "run.created" });
    expect(got).toEqual([{ kind: "event", runId: "r1", seq: 1, type: "run.created" }]);
    await publishing;
    await settle(50);
    expect(got).toHaveLength(1);
    expect(other).toEqual([]);
    await bus.close();
    await h.close();
  });

  it("a listener that throws does not fail the publisher (its event is already committed)", async () => {
    const h = await openMigratedPglite();
    const bus = await createRunBus(h);
    bus.subscribe("r1", () => {
      throw new Error("viewer broke");
    });
    await expect(
      bus.publish({ kind: "event", runId: "r1", seq: 1, type: "run.created" }),
    ).resolves.toBeUndefined();
    await bus.close();
    await h.close();
  });
});

if (pgUrl) {
  describe("run bus, postgres", () => {
    let fresh: Awaited<ReturnType<typeof createFreshPostgresDatabase>>;
    let a: DatabaseHandle;
    let b: DatabaseHandle;
    let busA: RunBus;
    let busB: RunBus;
    beforeAll(async () => {
      fresh = await createFreshPostgresDatabase(pgUrl);
      a = await openDatabase({ url: fresh.url, poolSize: 2 });
      b = await openDatabase({ url: fresh.url, poolSize: 2 });
      busA = await createRunBus(a);
      busB = await createRunBus(b);
    });
    afterAll(async () => {
      await busA?.close();
      await busB?.close();
      await a?.close();
      await b?.close();
      await fresh?.drop();
    });

    it("the publishing process hears its message at once and not again from its own NOTIFY; another process hears it once", async () => {
      const onA = heard(busA, "run-1");
      const onB = heard(busB, "run-1");
      const m: BusMessage = { kind: "event", runId: "run-1", seq: 7, type: "phase.started" };
      const publishing = busA.publish(m);
      // Delivered in its own process before any round trip to the server.
      expect(onA).toEqual([m]);
      expect(onB).toEqual([]);
      await publishing;
      await settle();
      expect(onA).toEqual([m]);
      expect(onB).toEqual([m]);
    });

    it("keeps an event's rows out of PostgreSQL's messages: every process reads them (a pooled read costs the run nothing)", async () => {
      const onA = heard(busA, "run-4");
      const onB = heard(busB, "run-4");
      const row = { runId: "run-4", seq: 3, type: "phase.started", payload: {}, createdAt: new Date() };
      await busA.publish({ kind: "event", runId: "run-4", seq: 3, type: "phase.started", rows: [row] });
      await settle();
      const bare = { kind: "event", runId: "run-4", seq: 3, type: "phase.started" };
      expect(onA).toEqual([bare]);
      expect(onB).toEqual([bare]);
    });

    it("a long delta reaches its own process whole and the other process in NOTIFY-sized parts that join up", async () => {
      const onA = heard(busA, "run-2");
      const onB = heard(busB, "run-2");
      const text = "abcdefghij".repeat(500);
      await busA.publish({ kind: "delta", runId: "run-2", text });
      await settle();
      expect(onA).toEqual([{ kind: "delta", runId: "run-2", text }]);
      expect(onB.length).toBeGreaterThan(1);
      expect(onB.map((m) => (m.kind === "delta" ? m.text : "")).join("")).toBe(text);
    });

    it("a message from a process without an origin mark (an older version) is heard by both", async () => {
      const onA = heard(busA, "run-3");
      const onB = heard(busB, "run-3");
      const m: BusMessage = { kind: "cancel", runId: "run-3" };
      if (a.kind !== "postgres") throw new Error("expected a PostgreSQL handle");
      await a.client.notify("deep_research_runs", JSON.stringify(m));
      await settle();
      expect(onA).toEqual([m]);
      expect(onB).toEqual([m]);
    });
  });
}
