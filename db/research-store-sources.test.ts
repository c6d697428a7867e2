// The sources of several directives in one query (round-end coverage, the report's numbering):
// the same rows, order and read marks as asking per directive, and an entry for every id asked.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { testDatabases } from "../test/databases.ts";
import type { DatabaseHandle } from "./client.ts";
import { createRun } from "./queries/runs.ts";
import { createDbRunStore } from "./research-store.ts";

const source = (n: number) => ({
  url: `https://example.org/${n}`,
  normalizedUrl: `https://example.org/${n}`,
  title: `Page ${n}`,
  domain: "example.org",
  provider: "searxng",
  quality: "MEDIUM" as const,
  snippet: `snippet ${n}`,
  content: null,
});

describe.each(testDatabases())("listSourcesOfDirectives on $name", ({ open }) => {
  let h: DatabaseHandle;
  beforeAll(async () => {
    h = await open();
  });
  afterAll(async () => {
    await h?.close();
  });

  it("gives each directive its own sources, in the order linked, with read marks, scoped to the run", async () => {
    const run = await createRun(h.db, { ownerId: "o", question: "sources?", settings: {} });
    const other = await createRun(h.db, { ownerId: "o", question: "other?", settings: {} });
    const store = createDbRunStore(h.db, run.id);
    const { created } = await store.addDirectives([
      { round: 0, topic: "First topic" },
      { round: 0, topic: "Second topic" },
      { round: 0, topic: "Third topic" },
    ]);
    const [a, b, c] = created;
    const [s1, s2] = await store.addSources(a.id, [source(1), source(2)]);
    await store.addSources(b.id, [source(2), source(3)]);
    await store.markSourceRead(a.id, s2.source.id);
    const otherStore = createDbRunStore(h.db, other.id);
    const [o] = (await otherStore.addDirectives([{ round: 0, topic: "Other topic" }])).created;
    await otherStore.addSources(o.id, [source(1)]);

    const all = await store.listSourcesOfDirectives([a.id, b.id, c.id, o.id]);
    const view = (id: string) => all.get(id)?.map((s) => `${s.title}${s.read ? " (read)" : ""}`);
    expect(view(a.id)).toEqual(["Page 1", "Page 2 (read)"]);
    expect(view(b.id)).toEqual(["Page 2", "Page 3"]);
    expect(view(c.id)).toEqual([]);
    // Another run's directive: nothing of this run's.
    expect(view(o.id)).toEqual([]);
    for (const d of [a, b]) expect(all.get(d.id)).toEqual(await store.listDirectiveSources(d.id));
    expect(all.get(a.id)?.[0].id).toBe(s1.source.id);
    expect((await store.listSourcesOfDirectives([])).size).toBe(0);
  });
});
