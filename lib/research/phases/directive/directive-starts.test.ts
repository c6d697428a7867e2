import { describe, expect, it } from "vitest";
import { gate } from "../../../../test/support/gate.ts";
import { engineDbForFile, newRun } from "../../../../test/support/researcher-harness.ts";
import type { EngineDeps } from "../../deps.ts";
import type { StoredEvent } from "../../events.ts";
import type { RunStore } from "../../store.ts";
import { withWritesBehind } from "../../writes-behind.ts";
import { createDirectiveStarts } from "./directive-starts.ts";

const engine = engineDbForFile();

/** The real store, with its markDirectivesRunning calls recorded; the events recorded by block. */
async function recorded(topics: string[]) {
  const { store: inner, directives } = await newRun(engine.handle, topics);
  const writes: string[][] = [];
  const store: RunStore = {
    ...inner,
    markDirectivesRunning: (ids) => {
      writes.push([...ids]);
      return inner.markDirectivesRunning(ids);
    },
  };
  const blocks: string[][] = [];
  const events = {
    emit: async (e: StoredEvent) => void blocks.push([`${e.type}`]),
    emitMany: async (es: readonly StoredEvent[]) =>
      void blocks.push(es.map((e) => `${e.type} ${"directiveId" in e ? e.directiveId : ""}`)),
  };
  return { inner, store, directives, writes, blocks, events };
}

describe("directives started together", () => {
  it("are marked running in one write and announced in one block, before any start resolves", async () => {
    const r = await recorded(["Topic A: heat pumps", "Topic B: boilers", "Topic C: tariffs"]);
    const starts = createDirectiveStarts({ store: r.store, events: r.events });
    const order: string[] = [];
    await Promise.all(
      r.directives.map(async (d, i) => {
        // Started as a round does: one after another in the same turn, some after a microtask.
        if (i === 2) await Promise.resolve();
        await starts.start(d.id);
        order.push(`${d.id} started with ${r.blocks.length} block(s) written`);
      }),
    );
    expect(r.writes).toEqual([r.directives.map((d) => d.id)]);
    expect(r.blocks).toEqual([r.directives.map((d) => `directive.started ${d.id}`)]);
    expect(order).toHaveLength(3);
    for (const line of order) expect(line).toContain("with 1 block(s)");
    const stored = await r.inner.listDirectives();
    expect(stored.map((d) => d.status)).toEqual(["running", "running", "running"]);
  });

  it("a start in a later turn is a write of its own", async () => {
    const r = await recorded(["Topic D: insulation", "Topic E: solar"]);
    const starts = createDirectiveStarts({ store: r.store, events: r.events });
    await starts.start(r.directives[0].id);
    await starts.start(r.directives[1].id);
    expect(r.writes).toEqual([[r.directives[0].id], [r.directives[1].id]]);
    expect(r.blocks).toHaveLength(2);
  });

  it("a failed write fails every start of its batch, and writes no event", async () => {
    const r = await recorded(["Topic F: grants", "Topic G: noise"]);
    const store: RunStore = {
      ...r.store,
      markDirectivesRunning: () => Promise.reject(new Error("disk full")),
    };
    const starts = createDirectiveStarts({ store, events: r.events });
    const outcomes = await Promise.allSettled(r.directives.map((d) => starts.start(d.id)));
    expect(outcomes.map((o) => o.status)).toEqual(["rejected", "rejected"]);
    expect(r.blocks).toEqual([]);
  });

  it("with writes behind, the starts resolve at once and are written before the researchers' next store call", async () => {
    const r = await recorded(["Topic H: heat pump noise", "Topic I: planning rules"]);
    const writeHeld = gate();
    const log: string[] = [];
    const held: RunStore = {
      ...r.store,
      markDirectivesRunning: async (ids) => {
        await writeHeld.opened;
        log.push("marked running");
        return r.store.markDirectivesRunning(ids);
      },
    };
    const deps = withWritesBehind({ store: held, events: r.events } as unknown as EngineDeps);
    const starts = createDirectiveStarts(deps);
    await Promise.all(r.directives.map((d) => starts.start(d.id)));
    // Resolved while the write is held: the researchers' model calls would go out now.
    log.push("started");
    const read = deps.store.listDirectives().then((list) => {
      log.push("researcher's read");
      return list;
    });
    writeHeld.open();
    const seen = await read;
    expect(log).toEqual(["started", "marked running", "researcher's read"]);
    expect(seen.map((d) => d.status)).toEqual(["running", "running"]);
    expect(r.blocks).toEqual([r.directives.map((d) => `directive.started ${d.id}`)]);
  });
});
