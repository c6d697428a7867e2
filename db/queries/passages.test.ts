// Retrieval for follow-up questions on both databases: passages ranked by how much of the question
// they contain, in any language (Chinese without spaces, German compounds), and a run indexed once.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { testDatabases } from "../../test/databases.ts";
import type { DatabaseHandle } from "../client.ts";
import { sourcePassages, sources } from "../schema.ts";
import { indexRunPassages, searchRunPassages } from "./passages.ts";
import { createRun } from "./runs.ts";

const PAGES = {
  de: "Die Inflationsrate in Deutschland lag 2023 bei 5,9 Prozent. Lebensmittel wurden besonders teuer.",
  zh: "2023年德国的通货膨胀率为5.9%。食品价格上涨最多。",
  fr: "Le taux de chômage en France a baissé en 2023. Les salaires ont augmenté modestement.",
  solar:
    "Solar panels in northern Europe reach a capacity factor of about 10 percent. " +
    "Panel prices fell by half over the decade. ".repeat(2) +
    "Wind turbines in the North Sea reach a capacity factor above 40 percent, far more than solar panels.",
};

describe.each(testDatabases())("passage retrieval on $name", ({ open }) => {
  let h: DatabaseHandle;
  let runId: string;
  const ids: Record<string, string> = {};
  beforeAll(async () => {
    h = await open();
    runId = (await createRun(h.db, { ownerId: "owner", question: "Economy 2023?", settings: {} })).id;
    for (const [key, content] of Object.entries(PAGES)) {
      const [row] = await h.db
        .insert(sources)
        .values({ runId, url: `https://example.com/${key}`, normalizedUrl: `example.com/${key}`, content })
        .returning();
      ids[key] = row.id;
    }
    // A search hit never read has no text: nothing of it is indexed.
    await h.db.insert(sources).values({
      runId,
      url: "https://example.com/hit",
      normalizedUrl: "example.com/hit",
      snippet: "Deutschland",
    });
  });
  afterAll(() => h?.close());

  it("indexes a run's read sources once, however often it is asked", async () => {
    const first = await indexRunPassages(h.db, runId);
    expect(first).toBeGreaterThanOrEqual(4);
    const [again] = await Promise.all([indexRunPassages(h.db, runId), indexRunPassages(h.db, runId)]);
    expect(again).toBe(first);
    const rows = await h.db.select().from(sourcePassages);
    expect(rows.filter((r) => r.runId === runId)).toHaveLength(first);
  });

  it("finds the Chinese passage for a Chinese question", async () => {
    const hits = await searchRunPassages(h.db, runId, "德国的通货膨胀率是多少？", {
      limit: 5,
      minCoverage: 0.5,
    });
    expect(hits[0]?.sourceId).toBe(ids.zh);
    expect(hits[0].coverage).toBe(1);
    expect(hits.every((x) => x.sourceId === ids.zh)).toBe(true);
  });

  it("finds the German passage for a German question", async () => {
    const hits = await searchRunPassages(h.db, runId, "Wie hoch war die Inflationsrate in Deutschland?", {
      limit: 5,
      minCoverage: 0.5,
    });
    expect(hits.map((x) => x.sourceId)).toEqual([ids.de]);
    expect(hits[0].text).toContain("5,9 Prozent");
  });

  it("ranks the passage with more of the question first", async () => {
    const hits = await searchRunPassages(h.db, runId, "capacity factor of wind turbines", {
      limit: 5,
      minCoverage: 0.25,
    });
    expect(hits[0].sourceId).toBe(ids.solar);
    expect(hits[0].text).toContain("Wind turbines");
    expect(hits[0].coverage).toBe(1);
    for (let i = 1; i < hits.length; i++) expect(hits[i].coverage).toBeLessThanOrEqual(hits[i - 1].coverage);
  });

  it("finds nothing above the threshold for a question the sources cannot answer", async () => {
    expect(
      await searchRunPassages(h.db, runId, "population of Mars colonies", { limit: 5, minCoverage: 0.5 }),
    ).toEqual([]);
    expect(await searchRunPassages(h.db, runId, "what is the?", { limit: 5, minCoverage: 0.5 })).toEqual([]);
  });
});
