import { describe, expect, it } from "vitest";
import { coalescedSaves } from "./usage-saves.ts";

/** A save that stays in flight until released, recording what it was asked to write. */
function gatedSaver() {
  const written: number[] = [];
  const gates: (() => void)[] = [];
  const save = (v: number) =>
    new Promise<void>((resolve) => {
      written.push(v);
      gates.push(resolve);
    });
  const releaseAll = async () => {
    while (gates.length) {
      gates.shift()?.();
      await new Promise((r) => setTimeout(r, 0));
    }
  };
  return { written, save, releaseAll };
}

describe("coalescedSaves", () => {
  it("writes five snapshots that arrive during one save as one more save, of the latest", async () => {
    const g = gatedSaver();
    const saves = coalescedSaves(g.save);
    for (const v of [1, 2, 3, 4, 5]) saves.request(v);
    await g.releaseAll();
    expect(g.written).toEqual([1, 5]);
    saves.request(6);
    await g.releaseAll();
    expect(g.written).toEqual([1, 5, 6]);
  });

  it("close drops the snapshot waiting and awaits the save in flight", async () => {
    const g = gatedSaver();
    const saves = coalescedSaves(g.save);
    saves.request(1);
    saves.request(2);
    let closed = false;
    const closing = saves.close().then(() => {
      closed = true;
    });
    await new Promise((r) => setTimeout(r, 0));
    expect(closed).toBe(false);
    await g.releaseAll();
    await closing;
    saves.request(3);
    expect(g.written).toEqual([1]);
  });

  it("a failed save does not stop later ones", async () => {
    const written: number[] = [];
    const saves = coalescedSaves(async (v: number) => {
      written.push(v);
      if (v === 1) throw new Error("disk full");
    });
    saves.request(1);
    await new Promise((r) => setTimeout(r, 0));
    saves.request(2);
    await saves.close();
    expect(written).toEqual([1, 2]);
  });

  it("with gatherMs, snapshots that arrive within the window share one save, of the latest", async () => {
    const g = gatedSaver();
    const saves = coalescedSaves(g.save, { gatherMs: 30 });
    saves.request(1);
    await new Promise((r) => setTimeout(r, 5));
    saves.request(2);
    await new Promise((r) => setTimeout(r, 5));
    saves.request(3);
    expect(g.written).toEqual([]);
    await new Promise((r) => setTimeout(r, 40));
    await g.releaseAll();
    expect(g.written).toEqual([3]);
  });

  it("close during the window writes nothing and does not wait the window out", async () => {
    const g = gatedSaver();
    const saves = coalescedSaves(g.save, { gatherMs: 10_000 });
    saves.request(1);
    const started = Date.now();
    await saves.close();
    expect(Date.now() - started).toBeLessThan(1000);
    expect(g.written).toEqual([]);
  });
});
