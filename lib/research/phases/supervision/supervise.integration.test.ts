// BRIEF → SUPERVISION on the real drizzle store (in-memory PGlite) with mock models: two
// supervision rounds after the decomposition, checked through the stored rows.
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { DatabaseHandle } from "../../../../db/client.ts";
import { createRun } from "../../../../db/queries/runs.ts";
import { createDbRunStore } from "../../../../db/research-store.ts";
import { directiveSources, knowledgeItems } from "../../../../db/schema.ts";
import {
  assessment,
  critique,
  eventsOf,
  fakeExecutor,
  makeDeps,
  openEngineDb,
  plan,
  supervisorModel,
} from "../../../../test/support/supervisor-harness.ts";
import { writeBrief } from "../brief.ts";
import { runSupervision } from "./supervise.ts";

const QUESTION = "Lithium-ion or sodium-ion batteries for home energy storage?";
const BRIEF =
  "I want to understand whether lithium-ion or sodium-ion batteries are the better choice for home energy storage in 2024, comparing installed cost per kWh, cycle life and fire safety, using manufacturer data sheets, independent tests and regulator reports.";
const LI =
  "Lithium-ion home storage batteries in 2024: installed cost per kWh and warranted cycle life from manufacturer data";
const NA =
  "Sodium-ion batteries for residential storage: current cell prices and cycle life measured in independent tests";
const SAFETY =
  "Fire safety of lithium-ion and sodium-ion home batteries: thermal runaway behaviour and regulator incident reports";
const FOLLOW_NA =
  "Independent laboratory cycle-life results for CATL and BYD sodium-ion cells published since 2023";

describe("BRIEF → SUPERVISION on PGlite", () => {
  let handle: DatabaseHandle;
  beforeAll(async () => {
    handle = await openEngineDb();
  });
  afterAll(async () => {
    await handle?.close();
  });

  it("writes the brief, decomposes, runs two coverage rounds and stores directives, coverage and history", async () => {
    const run = await createRun(handle.db, { ownerId: "owner-1", question: QUESTION, settings: {} });
    const store = createDbRunStore(handle.db, run.id);
    await store.saveKnowledgeItems([
      {
        category: "finding",
        content: "Sodium-ion cells reached 160 Wh/kg in 2024",
        sourceIds: [],
        confidence: 0.9,
        needsReview: false,
      },
    ]);
    await handle.db
      .update(knowledgeItems)
      .set({ status: "established" })
      .where(eq(knowledgeItems.ownerId, "owner-1"));

    const m = supervisorModel({
      brief: () => BRIEF,
      // A typical question (not a comparison): the revision may add a cross-cutting directive.
      plan: () => plan("typical", [LI, NA]),
      critique: () => critique({ coverage: "fire safety, asked for in the brief, has no directive" }),
      revision: () => plan("typical", [LI, NA, SAFETY]),
      think: (_c, n) =>
        n === 0
          ? "Safety research failed and sodium-ion cycle life rests on one forum post."
          : "Sodium-ion cycle life is now backed by lab data.",
      assessment: (_c, n) =>
        n === 0
          ? assessment({ shouldContinue: true, overall: 0.55, followUps: [FOLLOW_NA, LI.toLowerCase()] })
          : assessment({
              shouldContinue: false,
              overall: 0.85,
              rationale: "Cost and cycle life are well supported.",
            }),
    });
    const { deps, events } = makeDeps({ store, model: m.model });
    const exec = fakeExecutor(store, (d) => {
      if (d.topic === LI) {
        return {
          sources: [
            { url: "https://www.nrel.gov/storage/li-ion-costs", quality: "HIGH" },
            { url: "https://www.energy-storage.news/li-prices", quality: "MEDIUM" },
          ],
        };
      }
      if (d.topic === NA)
        return { sources: [{ url: "https://www.reddit.com/r/batteries/sodium", quality: "LOW" }] };
      if (d.topic === SAFETY) return { fail: "every search provider failed" };
      return {
        sources: [
          { url: "https://www.nature.com/articles/sodium-cycle-life", quality: "HIGH" },
          { url: "https://www.sciencedirect.com/science/article/na-ion", quality: "HIGH" },
        ],
        findings: "Sodium-ion cells kept 80% capacity after 6,000 cycles in two lab studies [1][2].",
      };
    });

    const knowledge = await store.listEstablishedKnowledge(50);
    const brief = await writeBrief(deps, { question: QUESTION, knowledge });
    const out = await runSupervision(deps, { brief, executeDirective: exec.execute, knowledge });

    // The brief and its knowledge.
    expect((await store.getRun()).brief).toBe(BRIEF);
    expect(m.of("brief")[0].request).toContain("Sodium-ion cells reached 160 Wh/kg in 2024");
    expect(m.of("plan")[0].request).toContain("<established_knowledge>");

    // Directives as stored.
    expect(out).toMatchObject({ rounds: 3, stopReason: "coverage_sufficient" });
    const directives = await store.listDirectives();
    expect(directives.map((d) => [d.ordinal, d.round, d.origin, d.status, d.topic])).toEqual([
      [1, 0, "supervisor", "done", LI],
      [2, 0, "supervisor", "done", NA],
      [3, 0, "supervisor", "failed", SAFETY],
      [4, 1, "supervisor", "done", FOLLOW_NA],
    ]);
    expect(directives[2].error).toBe("every search provider failed");
    expect(directives[3].evidenceNeeded).toBe("primary sources\nGap: missing detail");
    expect(out.directives).toEqual(directives);
    const links = await handle.db
      .select()
      .from(directiveSources)
      .where(eq(directiveSources.directiveId, directives[3].id));
    expect(links).toHaveLength(2);

    // History rows.
    const [r0, r1, r2] = await store.listRounds();
    expect(r0).toMatchObject({
      round: 0,
      method: "decomposition",
      directivesGenerated: 3,
      directivesExecuted: 3,
      newSources: 3,
      think: null,
      decision: "continue",
    });
    expect(r0.assessment).toMatchObject({
      questionKind: "typical",
      initialCount: 2,
      finalCount: 3,
      revised: true,
    });
    expect(r0.assessment?.critique).toMatchObject({ coverage: { status: "ISSUE" } });
    const after0 = r0.coverageAfter as {
      totalSources: number;
      heuristic: { confidence: number; sourceAdequacy: number; completionRate: number; sufficient: boolean };
      directives: {
        topic: string;
        sourceCount: number;
        quality: Record<string, number>;
        uniqueDomains: number;
        status: string;
      }[];
    };
    expect(after0.totalSources).toBe(3);
    expect(after0.directives.map((d) => [d.sourceCount, d.uniqueDomains, d.status])).toEqual([
      [2, 2, "done"],
      [1, 1, "done"],
      [0, 0, "failed"],
    ]);
    expect(after0.directives[0].quality).toEqual({ HIGH: 1, MEDIUM: 1, LOW: 0, UNKNOWN: 0 });
    expect(after0.directives[1].quality).toEqual({ HIGH: 0, MEDIUM: 0, LOW: 1, UNKNOWN: 0 });
    // adequacy MIN(1, 0.5, 0) = 0; diversity (1 + 0.5 + 0)/3 = 0.5; completion 2/3.
    expect(after0.heuristic).toMatchObject({
      sourceAdequacy: 0,
      completionRate: 0.667,
      confidence: 0.3,
      sufficient: false,
    });

    expect(r1).toMatchObject({
      round: 1,
      method: "coverage",
      directivesGenerated: 1,
      directivesExecuted: 1,
      newSources: 2,
      think: "Safety research failed and sodium-ion cycle life rests on one forum post.",
      decision: "continue",
    });
    expect(r1.assessment).toMatchObject({ method: "llm", overallCoverage: 0.55, shouldContinue: true });
    expect(r1.coverageBefore).toEqual(r0.coverageAfter);
    expect((r1.coverageAfter as { totalSources: number }).totalSources).toBe(5);
    expect(r1.reason).toMatch(/^1 directive\(s\) researched, 2 new source\(s\)/);

    expect(r2).toMatchObject({
      round: 2,
      method: "coverage",
      directivesGenerated: 0,
      directivesExecuted: 0,
      newSources: 0,
      think: "Sodium-ion cycle life is now backed by lab data.",
      decision: "stop",
    });
    expect(r2.reason).toBe(
      "coverage_sufficient: the supervisor judged coverage sufficient (overall 0.85): Cost and cycle life are well supported.",
    );
    // Each decision's code is stored beside its English reason (the `because` column), the model's
    // rationale in it as said.
    expect(r1.because).toMatchObject({ code: "round_continue", values: { directives: 1, sources: 2 } });
    expect(r2.because).toEqual({
      code: "round_model_sufficient",
      values: { coverage: 0.85, said: "Cost and cycle life are well supported." },
    });

    // Round 2's supervisor saw its round-1 thought and the follow-up's findings in its memory.
    const think2 = m.of("think")[1].text;
    expect(think2).toContain("Round 1: my gap analysis\n\nSafety research failed");
    expect(think2).toContain("Sodium-ion cells kept 80% capacity after 6,000 cycles");
    expect(think2).toContain("| 3 | 0 | supervisor | failed | 0 (0) | 0/0/0/0 | 0 | 0 |");

    // The event trail, in order.
    const trail = events
      .map((e) => e.type)
      .filter(
        (t) => t.startsWith("supervision.") || t.startsWith("brief.") || t === "directive.duplicate_skipped",
      );
    expect(trail).toEqual([
      "brief.created",
      "supervision.round_started",
      "supervision.first_round_generate",
      "supervision.first_round_critique",
      "supervision.first_round_revise",
      "supervision.first_round_decomposition",
      "supervision.round_completed",
      "supervision.round_started",
      "supervision.think",
      "supervision.assessment",
      "directive.duplicate_skipped",
      "supervision.round_completed",
      "supervision.round_started",
      "supervision.think",
      "supervision.assessment",
      "supervision.round_completed",
    ]);
    expect(eventsOf(events, "directive.duplicate_skipped")[0]).toMatchObject({
      duplicateOf: directives[0].id,
    });
  });
});
