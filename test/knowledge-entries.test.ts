// The knowledge page's cards and the library's document page, on both databases: near-duplicate
// items merge into one card with every run and source they came from (another person's run stays
// hidden), undo returns an item to the review queue, and a document opens only for its owner.
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { DatabaseHandle } from "../db/client.ts";
import { createRun } from "../db/queries/runs.ts";
import { knowledgeItems, sources } from "../db/schema.ts";
import { isAppError } from "../lib/errors.ts";
import { createRunBus } from "../lib/jobs/bus.ts";
import type { Runtime } from "../lib/jobs/runtime.ts";
import { groupNearDuplicates, knowledgeEntries } from "../lib/server/knowledge/list.ts";
import { reviewOwnKnowledgeItem } from "../lib/server/knowledge/review.ts";
import { addToLibrary } from "../lib/server/library/add.ts";
import { getOwnLibraryDocument } from "../lib/server/library/view.ts";
import { testDatabases } from "./databases.ts";

const item = (id: string, content: string, status = "provisional", own = true) => ({
  id,
  content,
  status,
  own,
});

describe("groupNearDuplicates", () => {
  it("merges rewordings of one fact and keeps the newest (first) item first", () => {
    const groups = groupNearDuplicates([
      item("a", "Cold-climate heat pumps reach a seasonal COP of 2.7 in field trials."),
      item("b", "In field trials, cold climate heat pumps reach a seasonal COP of 2.7"),
      item("c", "Underfloor heating works well with low flow temperatures."),
    ]);
    expect(groups.map((g) => g.map((i) => i.id))).toEqual([["a", "b"], ["c"]]);
  });

  it("keeps different decisions and other people's items apart", () => {
    const text = "Heat pump COP ratings assume 7 °C outdoor air.";
    const groups = groupNearDuplicates([
      item("a", text),
      item("b", text, "established"),
      item("c", text, "provisional", false),
      item("d", text),
    ]);
    expect(groups.map((g) => g.map((i) => i.id))).toEqual([["a", "d"], ["b"], ["c"]]);
  });
});

describe.each(testDatabases())("knowledge cards and documents on $name", ({ open }) => {
  let handle: DatabaseHandle;
  let rt: Runtime;
  beforeAll(async () => {
    handle = await open();
    rt = { handle, bus: await createRunBus(handle) };
  });
  afterAll(async () => {
    await rt?.bus.close();
    await handle?.close();
  });

  async function runWithSource(ownerId: string, question: string, url: string) {
    const run = await createRun(handle.db, { ownerId, question, settings: {} });
    const [source] = await handle.db
      .insert(sources)
      .values({
        runId: run.id,
        url,
        normalizedUrl: url,
        title: `Title of ${url}`,
        domain: new URL(url).hostname,
      })
      .returning();
    return { run, source };
  }

  it("shows near-duplicates once, with every run and linked source, hiding another person's source", async () => {
    const owner = `kn-${Date.now()}`;
    const first = await runWithSource(owner, "Do heat pumps work in the cold?", "https://a.example/trial");
    const second = await runWithSource(owner, "Heat pumps in Nordic winters?", "https://b.example/nordic");
    const foreign = await runWithSource("someone-else", "Not yours", "https://c.example/private");
    const [older, newer] = await handle.db
      .insert(knowledgeItems)
      .values([
        {
          ownerId: owner,
          runId: first.run.id,
          category: "finding",
          content: "Field trials put cold-climate seasonal COP near 2.7.",
          sourceIds: [first.source.id],
        },
        {
          ownerId: owner,
          runId: second.run.id,
          category: "finding",
          content: "Field trials put the cold climate seasonal COP near 2.7",
          sourceIds: [second.source.id, foreign.source.id],
        },
      ])
      .returning();
    // The newer item leads the card.
    await handle.db
      .update(knowledgeItems)
      .set({ createdAt: new Date(Date.now() + 1000) })
      .where(eq(knowledgeItems.id, newer.id));

    const entries = await knowledgeEntries(rt, owner);
    expect(entries).toHaveLength(1);
    const [card] = entries;
    expect(card.ids).toEqual([newer.id, older.id]);
    expect(card.runs).toEqual([
      { id: second.run.id, question: "Heat pumps in Nordic winters?" },
      { id: first.run.id, question: "Do heat pumps work in the cold?" },
    ]);
    expect(card.sources.map((s) => s.url).sort()).toEqual([
      "https://a.example/trial",
      "https://b.example/nordic",
    ]);
    expect(card.sources.find((s) => s.url === "https://a.example/trial")).toMatchObject({
      runId: first.run.id,
      title: "Title of https://a.example/trial",
    });
  });

  it("undo puts a reviewed item back in the queue, as unreviewed", async () => {
    const owner = `undo-${Date.now()}`;
    const [row] = await handle.db
      .insert(knowledgeItems)
      .values({ ownerId: owner, category: "lesson", content: "Size radiators for 45 °C flow." })
      .returning();
    const approved = await reviewOwnKnowledgeItem(rt, owner, row.id, { status: "established" });
    expect(approved).toMatchObject({ status: "established", needsReview: false });
    expect(approved.reviewedAt).not.toBeNull();
    const restored = await reviewOwnKnowledgeItem(rt, owner, row.id, { status: "provisional" });
    expect(restored).toMatchObject({ status: "provisional", needsReview: true, reviewedAt: null });
    await expect(reviewOwnKnowledgeItem(rt, "intruder", row.id, { status: "established" })).rejects.toSatisfy(
      (e) => isAppError(e) && e.code === "not_found",
    );
  });

  it("opens a document with its text for its owner only", async () => {
    const doc = await addToLibrary(rt, "librarian", {
      title: "Radiator sizing",
      sourceUrl: null,
      mimeType: "text/markdown",
      content: "Low flow temperatures need larger radiators.",
    });
    const read = await getOwnLibraryDocument(rt, doc.id, "librarian");
    expect(read).toMatchObject({ title: "Radiator sizing", own: true });
    expect(read.content).toBe("Low flow temperatures need larger radiators.");
    await expect(getOwnLibraryDocument(rt, doc.id, "someone-else")).rejects.toSatisfy(
      (e) => isAppError(e) && e.code === "not_found",
    );
  });
});
