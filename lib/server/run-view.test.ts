import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { DatabaseHandle } from "../../db/client.ts";
import { createRun } from "../../db/queries/runs.ts";
import { createDbRunStore } from "../../db/research-store.ts";
import { openEngineDb } from "../../test/support/researcher-harness.ts";
import { runView } from "./run-view.ts";

let handle: DatabaseHandle;
beforeAll(async () => {
  handle = await openEngineDb();
});
afterAll(async () => {
  await handle?.close();
});

describe("runView: directives", () => {
  it("exposes each directive's researcher stop reason, null until its result is stored", async () => {
    const run = await createRun(handle.db, { ownerId: "tester", question: "Stop reasons?", settings: {} });
    const store = createDbRunStore(handle.db, run.id);
    const { created } = await store.addDirectives([
      { round: 0, topic: "First topic" },
      { round: 0, topic: "Second topic" },
      { round: 0, topic: "Third topic" },
    ]);
    const result = (directiveId: string, stopReason: string) => ({
      directiveId,
      messages: [],
      compressedFindings: "findings",
      rawNotes: null,
      toolCalls: 3,
      stopReason,
    });
    await store.saveResearcherResult(result(created[0].id, "similar_searches"));
    await store.saveResearcherResult(result(created[1].id, "relevant_sources"));

    const view = await runView(handle.db, run);

    expect(view.directives.map((d) => [d.topic, d.stopReason])).toEqual([
      ["First topic", "similar_searches"],
      ["Second topic", "relevant_sources"],
      ["Third topic", null],
    ]);
    // The run page shows each researched directive's compressed findings on expand.
    expect(view.findings).toEqual({ [created[0].id]: "findings", [created[1].id]: "findings" });
  });
});
