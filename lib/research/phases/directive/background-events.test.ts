import { describe, expect, it } from "vitest";
import type { EventSink, StoredEvent } from "../../events.ts";
import { inBackground } from "./background-events.ts";

const think = (text: string): StoredEvent => ({ type: "researcher.think", directiveId: "d", text });

/** A sink whose writes stay open until released, recording the order they were written in. */
function slowSink() {
  const written: string[] = [];
  const gates: (() => void)[] = [];
  const write = (texts: string[]) =>
    new Promise<void>((resolve) => {
      gates.push(() => {
        written.push(...texts);
        resolve();
      });
    });
  const sink: EventSink = {
    emit: (e) => write([(e as { text: string }).text]),
    emitMany: (es) => write(es.map((e) => (e as { text: string }).text)),
  };
  const release = async () => {
    while (gates.length) {
      gates.shift()?.();
      await new Promise((r) => setTimeout(r, 0));
    }
  };
  return { sink, written, release };
}

describe("inBackground", () => {
  it("returns from emit before the write, writes in the order emitted, and flush waits for all", async () => {
    const s = slowSink();
    const events = inBackground(s.sink);
    await events.emit(think("a"));
    await events.emitMany?.([
      { type: "researcher.think", directiveId: "d", text: "b" },
      { type: "researcher.think", directiveId: "d", text: "c" },
    ]);
    await events.emit(think("d"));
    expect(s.written).toEqual([]);
    let flushed = false;
    const flushing = events.flush().then(() => {
      flushed = true;
    });
    await new Promise((r) => setTimeout(r, 0));
    expect(flushed).toBe(false);
    await s.release();
    await flushing;
    expect(s.written).toEqual(["a", "b", "c", "d"]);
  });

  it("flush reports the first failed write", async () => {
    const written: string[] = [];
    const events = inBackground({
      emit: async (e) => {
        const text = (e as { text: string }).text;
        if (text === "bad") throw new Error("database gone");
        written.push(text);
      },
    });
    await events.emit(think("a"));
    await events.emit(think("bad"));
    await events.emit(think("c"));
    await expect(events.flush()).rejects.toThrow("database gone");
    expect(written).toEqual(["a", "c"]);
  });

  it("starts a step's rows at once and writes their events in their place among the others", async () => {
    const { sink, written, release } = slowSink();
    const bg = inBackground(sink);
    const rows: string[] = [];
    await bg.emit(think("before"));
    bg.store(["https://a.example/page"], async () => {
      rows.push("page row");
      return [think("page read")];
    });
    await bg.emit(think("after"));
    // The rows do not wait for the events queued before them; a read of their URL waits for the rows only.
    await bg.pending("https://a.example/page");
    expect(rows).toEqual(["page row"]);
    expect(written).toEqual([]);
    const flushed = bg.flush();
    await release();
    await flushed;
    expect(written).toEqual(["before", "page read", "after"]);
  });

  it("a failed row write fails flush, and its URL is no longer pending", async () => {
    const bg = inBackground({ emit: async () => {} });
    bg.store(["https://b.example/x"], () => Promise.reject(new Error("disk full")));
    await expect(bg.pending("https://b.example/x")).resolves.toBeUndefined();
    await expect(bg.flush()).rejects.toThrow("disk full");
  });

  it("flush also waits for what a write queues while it runs", async () => {
    const written: string[] = [];
    const sink: EventSink = { emit: async (e) => void written.push((e as { text: string }).text) };
    const bg = inBackground(sink);
    bg.store([], async () => {
      await new Promise((r) => setTimeout(r, 20));
      // e.g. a source linked inside a page read announces itself through the researcher's events
      await bg.emit(think("nested"));
      return [];
    });
    await bg.flush();
    expect(written).toEqual(["nested"]);
  });
});
