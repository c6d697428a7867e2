import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { DatabaseHandle } from "../../../db/client.ts";
import { createRun, getRun } from "../../../db/queries/runs.ts";
import { createDbRunStore } from "../../../db/research-store.ts";
import type { Run } from "../../../db/schema.ts";
import { openEngineDb } from "../../../test/support/researcher-harness.ts";
import type { Degradation } from "../../research/degradations.ts";
import { runView } from "./view-model.ts";

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

describe("runView: degradations", () => {
  it("lists each step's fallback once per step and round, in the order they happened", async () => {
    const run = await createRun(handle.db, { ownerId: "tester", question: "Fallbacks?", settings: {} });
    const store = createDbRunStore(handle.db, run.id);
    const fallback = (step: Degradation["step"], round: number | null, error: string): Degradation => ({
      step,
      round,
      model: "openai:gpt-5.1",
      error,
      notice: `${step} fell back: ${error}`,
      at: "2026-11-26T10:00:00.000Z",
    });
    expect(await store.addDegradation(fallback("coverage_assessment", 1, "refused"))).toBe(true);
    expect(await store.addDegradation(fallback("coverage_assessment", 2, "refused"))).toBe(true);
    expect(await store.addDegradation(fallback("citation_check", null, "refused"))).toBe(true);
    // A resumed attempt failing the same step again adds nothing.
    expect(await store.addDegradation(fallback("coverage_assessment", 1, "refused again"))).toBe(false);
    expect(await store.addDegradation(fallback("citation_check", null, "refused again"))).toBe(false);

    const view = await runView(handle.db, (await getRun(handle.db, run.id)) as Run);
    expect(view.degradations.map((d) => [d.step, d.round, d.error])).toEqual([
      ["coverage_assessment", 1, "refused"],
      ["coverage_assessment", 2, "refused"],
      ["citation_check", null, "refused"],
    ]);
  });
});
