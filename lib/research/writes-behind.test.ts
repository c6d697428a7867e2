import { describe, expect, it } from "vitest";
import { gate } from "../../test/support/gate.ts";
import type { EngineDeps } from "./deps.ts";
import type { EventSink, ResearchEvent, StoredEvent } from "./events.ts";
import type { RunStore } from "./store.ts";
import { deferWrite, withWritesBehind } from "./writes-behind.ts";

/** A store and sink that log what reaches them; `saveBrief` waits while held (`hold`). */
function recordingDeps() {
  const log: string[] = [];
  let held: ReturnType<typeof gate> | undefined;
  const store = {
    async saveBrief(brief: string) {
      if (held) await held.opened;
      if (brief === "fail") throw new Error("disk full");
      log.push(`brief ${brief}`);
    },
    async listDirectives() {
      log.push("read directives");
      return [];
    },
  } as unknown as RunStore;
  const events: EventSink = {
    async emit(e: ResearchEvent) {
      log.push(`event ${e.type}`);
    },
    async emitMany(list: readonly StoredEvent[]) {
      log.push(`events ${list.map((e) => e.type).join(",")}`);
    },
  };
  const deps = { store, events } as unknown as EngineDeps;
  return {
    deps,
    log,
    hold() {
      const g = gate();
      held = g;
      return () => {
        held = undefined;
        g.open();
      };
    },
  };
}

describe("writes behind the next model call", () => {
  it("returns before the deferred write lands, and the next store call waits for it", async () => {
    const world = recordingDeps();
    const deps = withWritesBehind(world.deps);
    const open = world.hold();
    await deferWrite(deps, (d) => d.store.saveBrief("one"));
    await deferWrite(deps, (d) => d.events.emit({ type: "brief.created", brief: "one", knowledgeItems: 0 }));
    // The caller goes on (a model call would go out here) while the write is held.
    expect(world.log).toEqual([]);
    const read = deps.store.listDirectives();
    await new Promise((r) => setTimeout(r, 5));
    expect(world.log).toEqual([]);
    open();
    await read;
    expect(world.log).toEqual(["brief one", "event brief.created", "read directives"]);
  });

  it("keeps events after the deferred writes they follow", async () => {
    const world = recordingDeps();
    const deps = withWritesBehind(world.deps);
    const open = world.hold();
    await deferWrite(deps, (d) => d.store.saveBrief("one"));
    const emitted = deps.events.emitMany?.([{ type: "phase.started", phase: "synthesis" }]);
    open();
    await emitted;
    expect(world.log).toEqual(["brief one", "events phase.started"]);
  });

  it("calls the store at once when nothing is deferred", () => {
    const world = recordingDeps();
    const deps = withWritesBehind(world.deps);
    void deps.store.listDirectives();
    // Synchronously: no wait was put in front of the call.
    expect(world.log).toEqual(["read directives"]);
  });

  it("stops at a failed write: later deferred writes are dropped and the next store call throws it, once", async () => {
    const world = recordingDeps();
    const deps = withWritesBehind(world.deps);
    await deferWrite(deps, (d) => d.store.saveBrief("first"));
    await deferWrite(deps, (d) => d.store.saveBrief("fail"));
    await deferWrite(deps, (d) => d.store.saveBrief("after"));
    await expect(deps.store.listDirectives()).rejects.toThrow("disk full");
    expect(world.log).toEqual(["brief first"]);
    // Thrown once: the engine's error path can still write the run's end.
    await deps.store.listDirectives();
    expect(world.log).toEqual(["brief first", "read directives"]);
  });

  it("throws a failed write at the next deferral, which is not written (no model call is made for it)", async () => {
    const world = recordingDeps();
    const deps = withWritesBehind(world.deps);
    await deferWrite(deps, (d) => d.store.saveBrief("fail"));
    await new Promise((resolve) => setTimeout(resolve, 10));
    await expect(deferWrite(deps, (d) => d.store.saveBrief("after"))).rejects.toThrow("disk full");
    await deps.behind?.flush();
    expect(world.log).toEqual([]);
    // Thrown once: the next deferral is written.
    await deferWrite(deps, (d) => d.store.saveBrief("later"));
    await deps.behind?.flush();
    expect(world.log).toEqual(["brief later"]);
  });

  it("flush waits for every deferred write and throws a failure", async () => {
    const world = recordingDeps();
    const deps = withWritesBehind(world.deps);
    await deferWrite(deps, (d) => d.store.saveBrief("a"));
    await deps.behind?.flush();
    expect(world.log).toEqual(["brief a"]);
    await deferWrite(deps, (d) => d.store.saveBrief("fail"));
    await expect(deps.behind?.flush()).rejects.toThrow("disk full");
    await expect(deps.behind?.flush()).resolves.toBeUndefined();
  });

  it("writes at once, awaited, where the engine runs without writes behind", async () => {
    const world = recordingDeps();
    const open = world.hold();
    let done = false;
    const written = deferWrite(world.deps, (d) => d.store.saveBrief("now")).then(() => {
      done = true;
    });
    await new Promise((r) => setTimeout(r, 5));
    expect(done).toBe(false);
    open();
    await written;
    expect(world.log).toEqual(["brief now"]);
  });

  it("is applied once: wrapping twice keeps one queue", async () => {
    const world = recordingDeps();
    const deps = withWritesBehind(world.deps);
    expect(withWritesBehind(deps)).toBe(deps);
  });
});
