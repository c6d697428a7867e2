import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { DatabaseHandle } from "../db/client.ts";
import {
  deleteLibraryDocument,
  getLibraryDocument,
  insertLibraryDocument,
  libraryBackend,
  listLibraryDocuments,
  searchLibrary,
} from "../db/queries/library.ts";
import { createSearch } from "../lib/search/index.ts";
import { testDatabases } from "./databases.ts";

const DOCS = [
  {
    title: "Gardening notes",
    content:
      "Tomatoes need full sun and regular watering. Mulch keeps the soil moist. A heat wave can stress plants.",
  },
  {
    title: "Heat pumps in cold climates",
    content:
      "A heat pump moves heat from outdoor air into the house. Cold-climate heat pump models keep a coefficient " +
      "of performance above 2 at minus 15 degrees. Heat pump efficiency depends on the flow temperature.",
  },
  {
    title: "Kitchen appliances",
    content: "An induction hob heats the pan directly. A dishwasher has a small pump to move water.",
  },
  {
    title: "Wärmepumpen im Altbau",
    content:
      "Eine Wärmepumpe arbeitet auch im Altbau effizient, wenn die Vorlauftemperatur niedrig bleibt. " +
      "Größere Heizkörper senken die nötige Vorlauftemperatur. Die Jahresarbeitszahl liegt oft über drei.",
  },
];

describe.each(testDatabases())("document library on $name", ({ open }) => {
  let handle: DatabaseHandle;
  const ids: Record<string, string> = {};

  beforeAll(async () => {
    handle = await open();
    for (const d of DOCS) {
      const row = await insertLibraryDocument(handle.db, { ownerId: "alice", mimeType: "text/plain", ...d });
      ids[d.title] = row.id;
    }
    await insertLibraryDocument(handle.db, {
      ownerId: "bob",
      title: "Bob's heat pump diary",
      content: "Bob's heat pump heat pump heat pump notes, private to Bob.",
      mimeType: "text/markdown",
      sourceUrl: "https://bob.example/diary",
    });
  });
  afterAll(async () => {
    await handle?.close();
  });

  it("ranks the relevant document first among several", async () => {
    const hits = await searchLibrary(handle.db, "alice", "heat pump efficiency", 10);
    expect(hits[0].title).toBe("Heat pumps in cold climates");
    expect(hits[0].score).toBeGreaterThanOrEqual(1); // every word matched
    // Partial matches follow, below the full match.
    expect(hits.slice(1).every((h) => h.score < 1)).toBe(true);
    expect(hits.map((h) => h.title)).toContain("Kitchen appliances");
  });

  it("answers natural-language questions through the any-word fallback", async () => {
    const hits = await searchLibrary(
      handle.db,
      "alice",
      "what is the efficiency of a heat pump in the cold?",
      10,
    );
    expect(hits[0].title).toBe("Heat pumps in cold climates");
    expect(hits.map((h) => h.title)).not.toContain("Wärmepumpen im Altbau");
  });

  it("honours exclusions and quoted phrases", async () => {
    const excluded = await searchLibrary(handle.db, "alice", "pump -dishwasher", 10);
    expect(excluded.map((h) => h.title)).toEqual(["Heat pumps in cold climates"]);
    const phrase = await searchLibrary(handle.db, "alice", '"flow temperature"', 10);
    expect(phrase.map((h) => h.title)).toEqual(["Heat pumps in cold climates"]);
  });

  it("stores German text and finds it by a German word, umlauts and ß included", async () => {
    const doc = await getLibraryDocument(handle.db, ids["Wärmepumpen im Altbau"], "alice");
    expect(doc?.content).toContain("Größere Heizkörper");
    for (const q of ["Vorlauftemperatur", "heizkörper", "Größere", "Wärmepumpe Altbau"]) {
      const hits = await searchLibrary(handle.db, "alice", q, 5);
      expect(
        hits.map((h) => h.title),
        q,
      ).toEqual(["Wärmepumpen im Altbau"]);
    }
  });

  it("highlights the matched terms in the snippet", async () => {
    const [hit] = await searchLibrary(handle.db, "alice", "Vorlauftemperatur", 5);
    expect(hit.snippet).toContain("**Vorlauftemperatur**");
    const [en] = await searchLibrary(handle.db, "alice", "coefficient of performance", 5);
    expect(en.snippet).toMatch(/\*\*coefficient\*\* of \*\*performance\*\*/);
    expect(en.content).toBe(DOCS[1].content);
  });

  it("returns nothing for no match, an empty query or only operators", async () => {
    expect(await searchLibrary(handle.db, "alice", "photosynthesis", 5)).toEqual([]);
    expect(await searchLibrary(handle.db, "alice", "", 5)).toEqual([]);
    expect(await searchLibrary(handle.db, "alice", '" - or', 5)).toEqual([]);
  });

  it("keeps owners apart in search, list, get and delete", async () => {
    const bobs = await searchLibrary(handle.db, "bob", "heat pump", 10);
    expect(bobs.map((h) => h.title)).toEqual(["Bob's heat pump diary"]);
    const alices = await searchLibrary(handle.db, "alice", "diary", 10);
    expect(alices).toEqual([]);
    const bobList = await listLibraryDocuments(handle.db, "bob");
    expect(bobList).toHaveLength(1);
    expect(bobList[0]).not.toHaveProperty("content");
    expect(bobList[0].chars).toBe("Bob's heat pump heat pump heat pump notes, private to Bob.".length);
    expect(await getLibraryDocument(handle.db, bobList[0].id, "alice")).toBeUndefined();
    expect(await deleteLibraryDocument(handle.db, bobList[0].id, "alice")).toBe(false);
    expect(await listLibraryDocuments(handle.db, "bob")).toHaveLength(1);
  });

  it("searches through the library provider with library:// or source URLs", async () => {
    const search = createSearch({ env: {}, library: libraryBackend(handle.db), ownerId: "alice" });
    const { results, errors } = await search.search("Jahresarbeitszahl", { maxResults: 5 });
    expect(errors).toEqual([]);
    expect(results).toEqual([
      expect.objectContaining({
        url: `library://${ids["Wärmepumpen im Altbau"]}`,
        title: "Wärmepumpen im Altbau",
        provider: "library",
        snippet: expect.stringContaining("**Jahresarbeitszahl**"),
        content: DOCS[3].content,
      }),
    ]);
    const bob = createSearch({
      env: { SEARCH_PROVIDERS: "library" },
      library: libraryBackend(handle.db),
      ownerId: "bob",
    });
    expect((await bob.search("diary")).results[0].url).toBe("https://bob.example/diary");
  });

  it("deletes a document so it is no longer listed or found", async () => {
    const doc = await insertLibraryDocument(handle.db, {
      ownerId: "alice",
      title: "Temporary",
      content: "Zanzibar spice trade history.",
      mimeType: "text/plain",
    });
    expect((await searchLibrary(handle.db, "alice", "zanzibar", 5)).map((h) => h.id)).toEqual([doc.id]);
    expect(await deleteLibraryDocument(handle.db, doc.id, "alice")).toBe(true);
    expect(await deleteLibraryDocument(handle.db, doc.id, "alice")).toBe(false);
    expect(await searchLibrary(handle.db, "alice", "zanzibar", 5)).toEqual([]);
    expect((await listLibraryDocuments(handle.db, "alice")).map((d) => d.id)).not.toContain(doc.id);
  });
});
