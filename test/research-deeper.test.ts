// Research deeper on the real drizzle store (PGlite) with mock models: a child seeded from a parent
// holds the parent's read sources with their text and its findings; the child's round-0 prompt
// carries those findings, and a planned directive that repeats a parent topic is dropped.
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { DatabaseHandle } from "../db/client.ts";
import { seedRunFrom } from "../db/queries/lineage.ts";
import { createRun } from "../db/queries/runs.ts";
import { createDbRunStore } from "../db/research-store.ts";
import { directiveSources, pageLinks, sources } from "../db/schema.ts";
import { runSupervision } from "../lib/research/phases/supervision/supervise.ts";
import {
  assessment,
  critique,
  eventsOf,
  fakeExecutor,
  makeDeps,
  openEngineDb,
  plan,
  supervisorModel,
} from "./support/supervisor-harness.ts";

const BRIEF =
  "I want to know how much rooftop solar panels save a household in Germany in 2024, with installed costs, feed-in tariffs and payback time.";
const COSTS = "Installed cost per kWp of rooftop solar in Germany in 2024 from installer price surveys";
const TARIFF = "Feed-in tariff rates for small rooftop solar systems in Germany under the EEG in 2024";
const PAYBACK = "Payback time of a home battery added to rooftop solar in Germany, from independent tests";
const PARENT_FINDING = "Installed costs averaged 1,400 euros per kWp in 2024 [1].";

describe("research deeper: seeding and the child's plan", () => {
  let h: DatabaseHandle;
  let parentId: string;
  beforeAll(async () => {
    h = await openEngineDb();
    // The parent: one directive researched (two pages read, one search hit never read), one failed.
    const parent = await createRun(h.db, { ownerId: "o", question: "Rooftop solar savings?", settings: {} });
    parentId = parent.id;
    const store = createDbRunStore(h.db, parentId);
    const m = supervisorModel({
      plan: () => plan("typical", [COSTS, TARIFF]),
      critique: () => critique(),
      think: () => "done",
      assessment: () => assessment({ shouldContinue: false }),
    });
    const { deps } = makeDeps({ store, model: m.model, config: { maxSupervisionRounds: 1 } });
    const exec = fakeExecutor(store, (d) =>
      d.topic === COSTS
        ? {
            sources: [
              { url: "https://prices.example.org/solar" },
              { url: "https://survey.example.org/kwp" },
              { url: "https://hit.example.org/unread", read: false },
            ],
            findings: PARENT_FINDING,
          }
        : { fail: "no search provider answered" },
    );
    await runSupervision(deps, { brief: BRIEF, executeDirective: exec.execute });
    const [read] = await store.listSources();
    await store.savePageLinks(read.id, ["https://prices.example.org/more"]);
    // A search hit is stored without text (the fake executor stores some for every page).
    await h.db
      .update(sources)
      .set({ content: null })
      .where(eq(sources.url, "https://hit.example.org/unread"));
  });
  afterAll(() => h?.close());

  async function seededChild() {
    const child = await createRun(h.db, {
      ownerId: "o",
      question: "Rooftop solar savings?",
      settings: {},
      brief: BRIEF,
      parentId,
    });
    const counts = await seedRunFrom(h.db, parentId, child.id);
    return { child, counts, store: createDbRunStore(h.db, child.id) };
  }

  it("copies the parent's read sources with their text, its links, and its findings as inherited directives", async () => {
    const { child, counts, store } = await seededChild();
    expect(counts).toEqual({ sources: 2, directives: 1 });
    const copied = await store.listSources();
    expect(copied.map((s) => [s.url, s.content])).toEqual([
      ["https://prices.example.org/solar", "Text of https://prices.example.org/solar"],
      ["https://survey.example.org/kwp", "Text of https://survey.example.org/kwp"],
    ]);
    const parentSourceIds = (await h.db.select().from(sources).where(eq(sources.runId, parentId))).map(
      (s) => s.id,
    );
    expect(copied.some((s) => parentSourceIds.includes(s.id))).toBe(false);
    expect(await store.listPageLinks()).toEqual(["https://prices.example.org/more"]);

    const [inherited] = await store.listDirectives();
    expect(inherited).toMatchObject({ ordinal: 1, topic: COSTS, type: "inherited", status: "done" });
    const [result] = await store.listResearcherResults();
    expect(result).toMatchObject({ directiveId: inherited.id, compressedFindings: PARENT_FINDING });
    const links = await h.db
      .select()
      .from(directiveSources)
      .where(eq(directiveSources.directiveId, inherited.id));
    expect(links).toHaveLength(2);
    expect((await h.db.select().from(pageLinks).where(eq(pageLinks.runId, child.id))).length).toBe(1);
    expect((await store.getRun()).brief).toBe(BRIEF);
  });

  it("plans round 0 around the parent's findings and drops a repeated parent topic", async () => {
    const { store } = await seededChild();
    const m = supervisorModel({
      // The planner repeats the parent's topic (reworded only in case) and adds a new one.
      plan: () => plan("typical", [COSTS.toUpperCase(), PAYBACK]),
      critique: () => critique(),
      think: () => "done",
      assessment: () => assessment({ shouldContinue: false }),
    });
    const { deps, events } = makeDeps({ store, model: m.model, config: { maxSupervisionRounds: 1 } });
    const exec = fakeExecutor(store, () => ({ sources: [{ url: "https://battery.example.org/test" }] }));
    await runSupervision(deps, { brief: BRIEF, executeDirective: exec.execute });

    const request = m.of("plan")[0].request;
    expect(request).toContain("<prior_research>");
    expect(request).toContain(PARENT_FINDING);
    expect(eventsOf(events, "directive.duplicate_skipped").map((e) => e.topic)).toEqual([
      COSTS.toUpperCase(),
    ]);
    // Only the new topic was researched; the inherited one was not run again.
    expect(exec.started.map((d) => d.topic)).toEqual([PAYBACK]);
    const directives = await store.listDirectives();
    expect(directives.map((d) => [d.ordinal, d.type, d.status, d.topic])).toEqual([
      [1, "inherited", "done", COSTS],
      [2, "initial", "done", PAYBACK],
    ]);
    expect((await store.listSources()).map((s) => s.url)).toContain("https://prices.example.org/solar");
  });
});
