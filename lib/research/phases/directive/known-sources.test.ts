import { describe, expect, it } from "vitest";
import type { SourceRecord } from "../../store.ts";
import { knownSourcesFor } from "./known-sources.ts";

const storeWith = (urls: string[]) => {
  let reads = 0;
  return {
    reads: () => reads,
    store: {
      listSources: async () => {
        reads++;
        return urls.map((normalizedUrl) => ({ normalizedUrl }) as SourceRecord);
      },
    },
  };
};

describe("the run's known sources", () => {
  it("starts from what the run stored, and knows a URL once it is claimed", async () => {
    const s = storeWith(["https://a.example/x"]);
    const known = await knownSourcesFor({}, s.store);
    expect(known.claim("https://a.example/x")).toBe(true);
    expect(known.claim("https://b.example/y")).toBe(false);
    expect(known.claim("https://b.example/y")).toBe(true);
  });

  it("is one set per researcher context, read from the store once", async () => {
    const s = storeWith([]);
    const context = {};
    const first = await knownSourcesFor(context, s.store);
    first.claim("https://c.example/z");
    const second = await knownSourcesFor(context, s.store);
    expect(second.claim("https://c.example/z")).toBe(true);
    expect(s.reads()).toBe(1);
    // Another context (another phase or run) reads again.
    expect((await knownSourcesFor({}, s.store)).claim("https://c.example/z")).toBe(false);
  });
});
