// The worker's store and sink (createRunWriters): the sink writes events in the background, so a
// write that marks work done — here a checkpoint, a directive's end — must wait until the events
// emitted before it are stored, or a crash in between would lose them while a resume skips the work.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { DatabaseHandle } from "../../db/client.ts";
import { listEventsAfter } from "../../db/queries/events.ts";
import { createRun } from "../../db/queries/runs.ts";
import { createDbRunStore } from "../../db/research-store.ts";
import { testDatabases } from "../../test/databases.ts";
import type { BusMessage, RunBus } from "./bus.ts";
import { createRunWriters } from "./execute-run.ts";

/** A bus whose first announcement hangs until released: the sink's queue stays busy meanwhile. */
function stalledBus() {
  let release = () => {};
  const released = new Promise<void>((r) => {
    release = r;
  });
  let first = true;
  const bus: RunBus = {
    async publish(_m: BusMessage) {
      if (!first) return;
      first = false;
      await released;
    },
    subscribe: () => () => {},
    async close() {},
  };
  return { bus, release };
}

const settle = () => new Promise((r) => setTimeout(r, 50));

describe.each(testDatabases())("the worker's run writers on $name", ({ open }) => {
  let h: DatabaseHandle;
  beforeAll(async () => {
    h = await open();
  });
  afterAll(async () => {
    await h?.close();
  });

  const types = async (runId: string) => (await listEventsAfter(h.db, runId, 0)).map((e) => e.type);

  it("a checkpoint is saved only once the events emitted before it are stored", async () => {
    const run = await createRun(h.db, { ownerId: "o", question: "writers?", settings: {} });
    const { bus, release } = stalledBus();
    const { store, events } = createRunWriters(h.db, bus, run.id);
    await events.emit({ type: "phase.started", phase: "brief" });
    await settle(); // its block is written and now waits on the stalled announcement
    await events.emit({ type: "brief.created", brief: "The brief", knowledgeItems: 0 });
    let saved = false;
    const saving = store.saveCheckpoint({ done: ["brief"], attempts: 1 }, 1).then(() => {
      saved = true;
    });
    await settle();
    expect(saved).toBe(false);
    expect(await types(run.id)).toEqual(["phase.started"]);
    release();
    await saving;
    expect(await types(run.id)).toEqual(["phase.started", "brief.created"]);
    expect((await createDbRunStore(h.db, run.id).getRun()).checkpoint).toEqual({
      done: ["brief"],
      attempts: 1,
    });
  });

  it("a directive's start does not wait for events; its end does", async () => {
    const run = await createRun(h.db, { ownerId: "o", question: "writers?", settings: {} });
    const { bus, release } = stalledBus();
    const { store, events } = createRunWriters(h.db, bus, run.id);
    const [d] = (await store.addDirectives([{ round: 0, topic: "Writers topic" }])).created;
    await events.emit({ type: "supervision.round_started", round: 0, pending: 1 });
    await settle();
    await events.emit({ type: "directive.started", directiveId: d.id });
    await store.setDirectiveStatus(d.id, "running");
    expect((await store.listDirectives())[0].status).toBe("running");
    let ended = false;
    const ending = store.setDirectiveStatus(d.id, "done").then(() => {
      ended = true;
    });
    await settle();
    expect(ended).toBe(false);
    release();
    await ending;
    expect(await types(run.id)).toEqual(["supervision.round_started", "directive.started"]);
    expect((await store.listDirectives())[0].status).toBe("done");
  });
});
