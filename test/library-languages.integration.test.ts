import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { DatabaseHandle } from "../db/client.ts";
import { insertLibraryDocument, searchLibrary } from "../db/queries/library.ts";
import { libraryQuery, markedSnippet } from "../db/queries/library-query.ts";
import { testDatabases } from "./databases.ts";

const WIND = "中国的光伏发电装机容量增长迅速，风力发电也在扩大。";
const BATTERIES = "储能电池的价格在过去十年里大幅下降。";

describe("library query words", () => {
  it("segments an unspaced Chinese part into words, ANDed, and keeps exclusions (several words as a phrase)", () => {
    const q = libraryQuery("风力发电的成本 -电池 -储能");
    expect(q.all).toBe('风力 发电 的 成本 -电池 -"储 能"');
    expect(q.any).toBe("风力 or 发电 or 成本");
    expect(q.excluded).toBe('-电池 -"储 能"');
  });

  it("keeps phrases, folds case and never passes the operator word or as a term", () => {
    const q = libraryQuery('"Heat Pump" or Vorlauftemperatur');
    expect(q.all).toBe('"heat pump" vorlauftemperatur');
    expect(q.terms).toEqual(["heat", "pump", "vorlauftemperatur"]);
    expect(libraryQuery('" - or').all).toBe("");
  });

  it("marks terms in a snippet PostgreSQL's headline cannot mark", () => {
    expect(markedSnippet(WIND, ["风力", "发电"])).toContain("**风力****发电**也在扩大");
    expect(markedSnippet(`${"x".repeat(500)} 风力`, ["风力"])).toMatch(/^… x+ \*\*风力\*\*$/);
  });
});

describe.each(testDatabases())("library search in any language on $name", ({ open }) => {
  let handle: DatabaseHandle;

  beforeAll(async () => {
    handle = await open();
    for (const [title, content] of [
      ["电力", WIND],
      ["电池", BATTERIES],
    ]) {
      await insertLibraryDocument(handle.db, { ownerId: "li", mimeType: "text/plain", title, content });
    }
  });
  afterAll(async () => {
    await handle?.close();
  });

  it("finds a Chinese document by a Chinese question sharing only two of its words", async () => {
    const hits = await searchLibrary(handle.db, "li", "风力发电的成本是多少", 5);
    expect(hits.map((h) => h.title)).toEqual(["电力"]);
    expect(hits[0].snippet).toContain("**风力**");
  });

  it("segments a document stored before segmentation on its first search", async () => {
    await handle.db.execute(
      sql`insert into library_documents (owner_id, title, content) values ('li', '旧文档', '氢能源汽车的续航里程不断提高。')`,
    );
    const before = await handle.db.execute<{ words: string | null }>(
      sql`select words from library_documents where title = '旧文档'`,
    );
    expect(rowsOf<{ words: string | null }>(before)[0].words).toBeNull();
    const hits = await searchLibrary(handle.db, "li", "汽车续航", 5);
    expect(hits.map((h) => h.title)).toEqual(["旧文档"]);
  });
});

const rowsOf = <T>(r: unknown): T[] => (Array.isArray(r) ? r : (r as { rows: T[] }).rows);
