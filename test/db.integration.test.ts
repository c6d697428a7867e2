import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import {
  type DatabaseHandle,
  type Db,
  migrateDatabase,
  pingDatabase,
  warmEmbeddedDatabase,
} from "../db/client.ts";
import { appendEvent, appendEvents, listEventsAfter } from "../db/queries/events.ts";
import { createRun, getRunForOwner, listRunsForOwner, updateRunStatus } from "../db/queries/runs.ts";
import { countSources, listSources, upsertSources } from "../db/queries/sources.ts";
import { createDbRunStore } from "../db/research-store.ts";
import { directives, knowledgeItems, libraryDocuments, shares } from "../db/schema.ts";
import { testDatabases } from "./databases.ts";

describe.each(testDatabases({ threaded: true }))("database layer on $label", ({ open, name }) => {
  let handle: DatabaseHandle;
  beforeAll(async () => {
    handle = await open();
  });
  afterAll(async () => {
    await handle?.close();
  });

  it("is the kind of database it claims and answers a ping", async () => {
    expect(handle.kind).toBe(name);
    await expect(pingDatabase(handle)).resolves.toBeUndefined();
  });

  it("embedded, opens every table and index at start in one statement; PostgreSQL needs nothing", async () => {
    const opened = await warmEmbeddedDatabase(handle);
    if (name === "pglite") {
      const tables = await handle.db.execute(
        sql`select count(*)::int as n from pg_tables where schemaname in ('public', 'pgboss')`,
      );
      const list = (tables as unknown as { rows: { n: number }[] }).rows;
      // Every table, and at least as many indexes (each has its primary key).
      expect(opened).toBeGreaterThanOrEqual(2 * Number(list[0].n));
    } else {
      expect(opened).toBe(0);
    }
  });

  it("re-applying migrations is a no-op", async () => {
    await migrateDatabase(handle);
    const rows = await handle.db.execute(sql`select count(*)::int as n from drizzle.__drizzle_migrations`);
    const list = Array.isArray(rows) ? rows : (rows as unknown as { rows: { n: number }[] }).rows;
    expect(Number((list[0] as { n: number }).n)).toBeGreaterThanOrEqual(1);
  });

  it("creates runs, lists them newest first per owner, and hides other owners' runs", async () => {
    const a = await createRun(handle.db, {
      ownerId: "alice",
      question: "first?",
      settings: { maxRounds: 2 },
    });
    await new Promise((r) => setTimeout(r, 5));
    const b = await createRun(handle.db, { ownerId: "alice", question: "second?", settings: {} });
    await createRun(handle.db, { ownerId: "bob", question: "bob's", settings: {} });
    expect(a.status).toBe("queued");
    expect(a.settings).toEqual({ maxRounds: 2 });
    const list = await listRunsForOwner(handle.db, "alice");
    expect(list.map((r) => r.id)).toEqual([b.id, a.id]);
    expect(await getRunForOwner(handle.db, a.id, "bob")).toBeUndefined();
    expect((await getRunForOwner(handle.db, a.id, "alice"))?.question).toBe("first?");
    const done = await updateRunStatus(handle.db, a.id, { status: "completed", phase: "done" });
    expect(done?.finishedAt).toBeInstanceOf(Date);
  });

  it("hands out gapless event seqs under concurrent writers and replays after a seq", async () => {
    const run = await createRun(handle.db, { ownerId: "alice", question: "events?", settings: {} });
    await Promise.all(
      Array.from({ length: 40 }, (_, i) =>
        appendEvent(handle.db, run.id, { type: "researcher.search", directiveId: "d", query: `q${i}` }),
      ),
    );
    const all = await listEventsAfter(handle.db, run.id, 0);
    expect(all.map((e) => e.seq)).toEqual(Array.from({ length: 40 }, (_, i) => i + 1));
    expect(new Set(all.map((e) => (e.payload as { query: string }).query)).size).toBe(40);
    expect(all[0]).toMatchObject({ type: "researcher.search", payload: { directiveId: "d" } });
    const tail = await listEventsAfter(handle.db, run.id, 35);
    expect(tail.map((e) => e.seq)).toEqual([36, 37, 38, 39, 40]);
    await expect(
      appendEvent(handle.db, "00000000-0000-4000-8000-000000000000", { type: "report.started" }),
    ).rejects.toThrow(/does not exist/);
  });

  it("stores one source row per URL per run, even when two researchers race", async () => {
    const run = await createRun(handle.db, { ownerId: "alice", question: "sources?", settings: {} });
    const [d] = await handle.db
      .insert(directives)
      .values({ runId: run.id, ordinal: 1, round: 0, topic: "T", normalizedTopic: "t" })
      .returning();
    const input = {
      url: "https://Example.org/a",
      normalizedUrl: "https://example.org/a",
      title: "A",
      domain: "example.org",
      provider: "searxng",
      quality: "MEDIUM" as const,
      content: "snapshot text",
    };
    const results = (
      await Promise.all([
        upsertSources(handle.db, run.id, d.id, [input]),
        upsertSources(handle.db, run.id, d.id, [input]),
      ])
    ).flat();
    expect(results.filter((r) => r.created)).toHaveLength(1);
    expect(results[0].source.id).toBe(results[1].source.id);
    expect(await countSources(handle.db, run.id)).toBe(1);
    expect((await listSources(handle.db, run.id))[0].content).toBe("snapshot text");
  });

  it("writes a block of events with one statement, gapless among single appends around it", async () => {
    const run = await createRun(handle.db, { ownerId: "alice", question: "blocks?", settings: {} });
    const search = (q: string) => ({ type: "researcher.search" as const, directiveId: "d", query: q });
    await Promise.all([
      appendEvent(handle.db, run.id, search("single-1")),
      appendEvents(handle.db, run.id, [search("block-1"), search("block-2"), search("block-3")]),
      appendEvent(handle.db, run.id, search("single-2")),
      appendEvents(handle.db, run.id, [search("block-4"), search("block-5")]),
    ]);
    const all = await listEventsAfter(handle.db, run.id, 0);
    expect(all.map((e) => e.seq)).toEqual([1, 2, 3, 4, 5, 6, 7]);
    const queries = all.map((e) => (e.payload as { query: string }).query);
    // Each block keeps its order and stays together.
    const b1 = queries.indexOf("block-1");
    expect(queries.slice(b1, b1 + 3)).toEqual(["block-1", "block-2", "block-3"]);
    const b4 = queries.indexOf("block-4");
    expect(queries.slice(b4, b4 + 2)).toEqual(["block-4", "block-5"]);
    expect(await appendEvents(handle.db, run.id, [])).toEqual([]);
    await expect(
      appendEvents(handle.db, "00000000-0000-4000-8000-000000000000", [search("x")]),
    ).rejects.toThrow(/does not exist/);
  });

  it("stamps an event with when its row was written, not when its transaction began, in seq order", async () => {
    const run = await createRun(handle.db, { ownerId: "alice", question: "times?", settings: {} });
    const search = (q: string) => ({ type: "researcher.search" as const, directiveId: "d", query: q });
    const began = Date.now();
    const written = await handle.db.transaction(async (tx) => {
      // The transaction's own work before the event (a run's end writes its status first).
      await tx.execute(sql`select pg_sleep(0.15)`);
      return appendEvent(tx as unknown as Db, run.id, search("late in its transaction"));
    });
    // now() would be the transaction's start; the event is stamped after the 150 ms before it.
    expect(written.createdAt.getTime() - began).toBeGreaterThanOrEqual(140);
    await Promise.all(["a", "b", "c", "d"].map((q) => appendEvent(handle.db, run.id, search(q))));
    const times = (await listEventsAfter(handle.db, run.id, 0)).map((e) => e.createdAt.getTime());
    expect(times).toEqual([...times].sort((x, y) => x - y));
  });

  it("stores a search's hits in their order, once per URL, linked to the directive", async () => {
    const run = await createRun(handle.db, { ownerId: "alice", question: "hits?", settings: {} });
    const [d] = await handle.db
      .insert(directives)
      .values({ runId: run.id, ordinal: 1, round: 0, topic: "T", normalizedTopic: "t" })
      .returning();
    const hit = (n: number) => ({
      url: `https://example.org/${n}`,
      normalizedUrl: `https://example.org/${n}`,
      title: `Hit ${n}`,
      domain: "example.org",
      provider: "searxng",
      quality: "MEDIUM" as const,
    });
    await upsertSources(handle.db, run.id, d.id, [hit(3)]);
    const results = await upsertSources(handle.db, run.id, d.id, [hit(9), hit(3), hit(1), hit(9), hit(5)]);
    expect(results.map((r) => [r.source.normalizedUrl, r.created])).toEqual([
      ["https://example.org/9", true],
      ["https://example.org/3", false],
      ["https://example.org/1", true],
      ["https://example.org/9", false],
      ["https://example.org/5", true],
    ]);
    expect(results[3].source.id).toBe(results[0].source.id);
    // The run's order (which numbers citations) is the order found: the earlier row first, then the batch's.
    expect((await listSources(handle.db, run.id)).map((s) => s.title)).toEqual([
      "Hit 3",
      "Hit 9",
      "Hit 1",
      "Hit 5",
    ]);
    const linked = await createDbRunStore(handle.db, run.id).listDirectiveSources(d.id);
    expect(linked.map((s) => s.title).sort()).toEqual(["Hit 1", "Hit 3", "Hit 5", "Hit 9"]);
  });

  it("the engine store adds directives in one write: dense ordinals, a repeated topic reported with the id it repeats", async () => {
    const run = await createRun(handle.db, { ownerId: "alice", question: "add?", settings: {} });
    const store = createDbRunStore(handle.db, run.id);
    const [first] = (await store.addDirectives([{ round: 0, topic: "Heat pump noise" }])).created;
    const inserts: unknown[] = [];
    const transaction = handle.db.transaction.bind(handle.db);
    const spied = vi.spyOn(handle.db, "transaction").mockImplementation(((run: (tx: Db) => unknown) =>
      transaction(async (tx) => {
        const insert = tx.insert.bind(tx);
        tx.insert = ((table: never) => {
          inserts.push(table);
          return insert(table);
        }) as typeof tx.insert;
        return run(tx as unknown as Db);
      })) as typeof handle.db.transaction);
    const { created, duplicates } = await store.addDirectives([
      { round: 1, topic: "Heat pump running costs" },
      { round: 1, topic: "heat pump NOISE!" },
      { round: 1, topic: "Heat pump grants" },
      { round: 1, topic: "Heat-pump running costs" },
    ]);
    spied.mockRestore();
    expect(inserts).toHaveLength(1);
    expect(created.map((d) => [d.ordinal, d.topic])).toEqual([
      [2, "Heat pump running costs"],
      [3, "Heat pump grants"],
    ]);
    expect(duplicates).toEqual([
      { topic: "heat pump NOISE!", duplicateOf: first.id },
      { topic: "Heat-pump running costs", duplicateOf: created[0].id },
    ]);
    expect(await store.addDirectives([{ round: 1, topic: "Heat pump grants" }])).toEqual({
      created: [],
      duplicates: [{ topic: "Heat pump grants", duplicateOf: created[1].id }],
    });
  });

  it("the engine store lists the sources of several directives in one read, each in its own order", async () => {
    const run = await createRun(handle.db, { ownerId: "alice", question: "many?", settings: {} });
    const store = createDbRunStore(handle.db, run.id);
    const [a, b, empty] = (
      await store.addDirectives([
        { round: 0, topic: "First many topic" },
        { round: 0, topic: "Second many topic" },
        { round: 0, topic: "Third many topic" },
      ])
    ).created;
    const hit = (n: number) => ({
      url: `https://example.org/many/${n}`,
      normalizedUrl: `https://example.org/many/${n}`,
      title: `Many ${n}`,
      domain: "example.org",
      provider: "web",
      quality: "MEDIUM" as const,
      snippet: null,
      content: null,
    });
    // One statement links a's hits (their links share a time), then b shares one of them and reads it.
    const found = await store.addSources(a.id, [hit(3), hit(1), hit(2)]);
    await store.addSources(b.id, [hit(4), hit(1)]);
    await store.markSourceRead(b.id, found[1].source.id);
    const other = createDbRunStore(
      handle.db,
      (await createRun(handle.db, { ownerId: "alice", question: "other many?", settings: {} })).id,
    );
    const [foreign] = (await other.addDirectives([{ round: 0, topic: "Foreign topic" }])).created;
    await other.addSources(foreign.id, [hit(9)]);

    const many = await store.listSourcesOfDirectives([a.id, b.id, empty.id, foreign.id]);
    expect([...many.keys()]).toEqual([a.id, b.id, empty.id, foreign.id]);
    expect(many.get(a.id)?.map((s) => s.title)).toEqual(["Many 3", "Many 1", "Many 2"]);
    // Linked by one statement: in the run's source order (Many 1 was stored first, by a).
    expect(many.get(b.id)?.map((s) => [s.title, s.read])).toEqual([
      ["Many 1", true],
      ["Many 4", false],
    ]);
    expect(many.get(empty.id)).toEqual([]);
    // Another run's directive: nothing of it through this run's store.
    expect(many.get(foreign.id)).toEqual([]);
    // The same lists, in the same order, as one read per directive.
    for (const id of [a.id, b.id]) expect(many.get(id)).toEqual(await store.listDirectiveSources(id));
    expect(await store.listSourcesOfDirectives([])).toEqual(new Map());
  });

  it("the engine store finds one source by its normalised URL, scoped to the run", async () => {
    const run = await createRun(handle.db, { ownerId: "alice", question: "lookup?", settings: {} });
    const other = await createRun(handle.db, { ownerId: "alice", question: "other?", settings: {} });
    const store = createDbRunStore(handle.db, run.id);
    const [d] = (await store.addDirectives([{ round: 0, topic: "Lookup topic" }])).created;
    const input = {
      url: "https://example.org/x",
      normalizedUrl: "https://example.org/x",
      title: "X",
      domain: "example.org",
      provider: "test",
      quality: "LOW" as const,
      content: "text",
    };
    const { source } = await store.addSource(d.id, input);
    expect((await store.getSourceByUrl("https://example.org/x"))?.id).toBe(source.id);
    expect(await store.getSourceByUrl("https://example.org/missing")).toBeUndefined();
    expect(
      await createDbRunStore(handle.db, other.id).getSourceByUrl("https://example.org/x"),
    ).toBeUndefined();
  });

  it("the engine store keeps the links of pages read once per run, and only for that run", async () => {
    const run = await createRun(handle.db, { ownerId: "alice", question: "links?", settings: {} });
    const other = await createRun(handle.db, { ownerId: "alice", question: "other links?", settings: {} });
    const store = createDbRunStore(handle.db, run.id);
    const [d] = (await store.addDirectives([{ round: 0, topic: "Links topic" }])).created;
    const page = (url: string) => ({
      url,
      normalizedUrl: url,
      title: url,
      domain: "example.org",
      provider: "fetch",
      quality: "UNKNOWN" as const,
      content: "text",
    });
    const a = (await store.addSource(d.id, page("https://example.org/a"))).source;
    const b = (await store.addSource(d.id, page("https://example.org/b"))).source;
    await Promise.all([
      store.savePageLinks(a.id, ["https://primary.example/1", "https://primary.example/2"]),
      store.savePageLinks(b.id, ["https://primary.example/2", "https://primary.example/3"]),
    ]);
    await store.savePageLinks(b.id, []);
    expect((await store.listPageLinks()).sort()).toEqual([
      "https://primary.example/1",
      "https://primary.example/2",
      "https://primary.example/3",
    ]);
    expect(await createDbRunStore(handle.db, other.id).listPageLinks()).toEqual([]);
  });

  it("the engine store lists the run owner's established knowledge with its origin, no one else's", async () => {
    const run = await createRun(handle.db, { ownerId: "carol", question: "knowledge?", settings: {} });
    const base = { category: "finding" as const, status: "established" as const, needsReview: false };
    await handle.db.insert(knowledgeItems).values([
      { ...base, ownerId: "carol", content: "carol typed this", origin: "user" },
      { ...base, ownerId: "carol", content: "carol's run found this", origin: "extracted" },
      { ...base, ownerId: "dave", content: "dave's own note", origin: "user" },
    ]);
    const items = await createDbRunStore(handle.db, run.id).listEstablishedKnowledge(10);
    expect(items.map((k) => [k.content, k.origin]).sort()).toEqual([
      ["carol typed this", "user"],
      ["carol's run found this", "extracted"],
    ]);
  });

  it("rejects a duplicate directive topic and a duplicate share token hash", async () => {
    const run = await createRun(handle.db, { ownerId: "alice", question: "dups?", settings: {} });
    const row = { runId: run.id, round: 0, topic: "Heat pumps", normalizedTopic: "heat pumps" };
    await handle.db.insert(directives).values({ ...row, ordinal: 1 });
    await expect(handle.db.insert(directives).values({ ...row, ordinal: 2 })).rejects.toThrow();
    await handle.db.insert(shares).values({ runId: run.id, tokenHash: "hash-1" });
    await expect(handle.db.insert(shares).values({ runId: run.id, tokenHash: "hash-1" })).rejects.toThrow();
  });

  it("keeps a full-text index over library documents in any language", async () => {
    await handle.db.insert(libraryDocuments).values([
      {
        ownerId: "alice",
        title: "Wärmepumpen",
        content: "Die Jahresarbeitszahl einer Wärmepumpe liegt bei drei.",
      },
      {
        ownerId: "alice",
        title: "Gas boilers",
        content: "Condensing boilers reach ninety percent efficiency.",
      },
    ]);
    const hits = await handle.db.execute(
      sql`select title from library_documents where search @@ websearch_to_tsquery('simple', 'Jahresarbeitszahl')`,
    );
    const list = Array.isArray(hits) ? hits : (hits as unknown as { rows: { title: string }[] }).rows;
    expect(list.map((r) => (r as { title: string }).title)).toEqual(["Wärmepumpen"]);
  });
});
