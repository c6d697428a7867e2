import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { DatabaseHandle } from "../../../../db/client.ts";
import { apiError, scriptedModel, textResult } from "../../../../test/support/ai-mocks.ts";
import {
  eventsOf,
  fakeWeb,
  hit,
  makeDeps,
  newRun,
  openEngineDb,
  researcherModel,
  toolCalls,
  unexpectedModel,
} from "../../../../test/support/researcher-harness.ts";
import { BudgetExceededError } from "../../../ai/usage.ts";
import { executeDirective } from "./execute.ts";
import { createKnownSources } from "./known-sources.ts";
import { createReadableUrls } from "./readable-urls.ts";
import { createSeenUrls } from "./seen-urls.ts";

let handle: DatabaseHandle;
beforeAll(async () => {
  handle = await openEngineDb();
});
afterAll(async () => {
  await handle?.close();
});

const ctx = () => ({
  brief: "Research brief",
  seenUrls: createSeenUrls(),
  readableUrls: createReadableUrls(),
  knownSources: createKnownSources(),
});

describe("executeDirective", () => {
  it("researches, compresses, stores the result and marks the directive done", async () => {
    const { store, directives } = await newRun(handle, ["Topic Rho: wind capacity factors"]);
    const [d] = directives;
    const web = fakeWeb({
      results: { "capacity factor": [hit("https://www.eia.gov/wind", "EIA wind data")] },
    });
    const researcher = researcherModel({
      "Topic Rho": [
        toolCalls([["web_search", { query: "capacity factor" }]]),
        toolCalls([["think", { reflection: "EIA has the numbers." }]]),
        toolCalls([["research_complete", { summary: "EIA data" }]]),
      ],
    });
    const compression = scriptedModel([textResult("## Findings\nUS onshore wind averaged 35% [1].")]);
    const { deps, events } = makeDeps({ store, models: { researcher, compression }, web });

    const out = await executeDirective(deps, d, ctx());

    const [src] = await store.listDirectiveSources(d.id);
    expect(out).toEqual({
      directiveId: d.id,
      ok: true,
      sourceIds: [src.id],
      findings:
        "## Findings\nUS onshore wind averaged 35% [1].\n\n### Sources\n[1] EIA wind data — https://www.eia.gov/wind",
    });
    const saved = await store.getResearcherResult(d.id);
    expect(saved).toMatchObject({
      compressedFindings: out.findings,
      rawNotes: null,
      toolCalls: 1,
      stopReason: "complete",
    });
    expect(saved?.messages).toHaveLength(7);
    expect((await store.listDirectives())[0].status).toBe("done");
    const types = events.map((e) => e.type);
    expect(types[0]).toBe("directive.started");
    expect(types.at(-1)).toBe("directive.completed");
    // The findings as stored go with the event: a page shows them without re-reading the run.
    expect(eventsOf(events, "directive.completed")[0]).toMatchObject({
      directiveId: d.id,
      sources: 1,
      findings: out.findings,
    });
    expect(types).toContain("compression.completed");
  });

  it("looks for a stored result only for a started directive, and ends with its events in one block", async () => {
    const { store: inner, directives } = await newRun(handle, ["Topic Tau: tidal capacity factors"]);
    const [d] = directives;
    const lookups: string[] = [];
    const store = {
      ...inner,
      getResearcherResult: (id: string) => {
        lookups.push(id);
        return inner.getResearcherResult(id);
      },
    };
    const web = fakeWeb({ results: { tidal: [hit("https://www.example.gov/tidal", "Tidal data")] } });
    const researcher = researcherModel({
      "Topic Tau": [
        toolCalls([["web_search", { query: "tidal" }]]),
        toolCalls([["think", { reflection: "Enough." }]]),
        toolCalls([["research_complete", { summary: "Tidal data" }]]),
      ],
    });
    const compression = scriptedModel([textResult("## Findings\nTidal plants reach 25% [1].")]);
    const { deps } = makeDeps({ store, models: { researcher, compression }, web });
    const blocks: string[][] = [];
    deps.events = {
      emit: async (e) => void blocks.push([e.type]),
      emitMany: async (es) => void blocks.push(es.map((e) => e.type)),
    };

    // Pending: it never ran, so no result can be stored; no lookup.
    await executeDirective(deps, d, ctx());
    expect(lookups).toEqual([]);
    expect(blocks.at(-1)).toEqual(["compression.completed", "directive.completed"]);
    expect(blocks).toContainEqual(["source.added", "researcher.search_results"]);

    // Started before (a resumed run): the stored result is found and nothing is researched again.
    const again = await executeDirective(
      { ...deps, models: makeDeps({ store, models: {} }).deps.models },
      {
        ...d,
        status: "running",
      },
      ctx(),
    );
    expect(lookups).toEqual([d.id]);
    expect(again.findings).toContain("Tidal plants reach 25% [1].");
  });

  it("stores the raw notes as the findings when compression fails, so a resume does not redo the work", async () => {
    const { store, directives } = await newRun(handle, ["Topic Chi: compression down"]);
    const [d] = directives;
    const researcher = researcherModel({
      "Topic Chi": [
        toolCalls([["think", { reflection: "NOTE-CHI" }]]),
        toolCalls([["research_complete", { summary: "s" }]]),
      ],
    });
    const compression = scriptedModel([
      apiError({ status: 400, body: { error: { message: "Unsupported parameter" } } }),
    ]);
    const { deps } = makeDeps({ store, models: { researcher, compression } });

    const out = await executeDirective(deps, d, ctx());

    expect(out.ok).toBe(true);
    expect(out.findings).toMatch(/^Raw research notes/);
    expect(out.findings).toContain("NOTE-CHI");
    const saved = await store.getResearcherResult(d.id);
    expect(saved).toMatchObject({ compressedFindings: out.findings, rawNotes: out.findings });
  });

  it("on a resumed run returns the stored findings without calling any model", async () => {
    const { store, directives } = await newRun(handle, ["Topic Sigma: already researched"]);
    const [d] = directives;
    await store.addSource(d.id, {
      url: "https://example.org/s",
      normalizedUrl: "https://example.org/s",
      title: "S",
      domain: "example.org",
      provider: "fake",
      quality: "UNKNOWN",
    });
    await store.saveResearcherResult({
      directiveId: d.id,
      messages: [],
      compressedFindings: "Stored findings [1].",
      rawNotes: null,
      toolCalls: 2,
      stopReason: "complete",
    });
    const researcher = unexpectedModel("researcher");
    const compression = unexpectedModel("compression");
    const { deps, events } = makeDeps({ store, models: { researcher, compression } });

    const out = await executeDirective(deps, { ...d, status: "running" }, ctx());

    expect(out).toMatchObject({ ok: true, findings: "Stored findings [1]." });
    expect(out.sourceIds).toHaveLength(1);
    expect(researcher.doGenerateCalls).toHaveLength(0);
    expect(compression.doGenerateCalls).toHaveLength(0);
    // The crash came before the directive was marked: only that step is finished now.
    expect((await store.listDirectives())[0].status).toBe("done");
    expect(events.map((e) => e.type)).toEqual(["directive.completed"]);
  });

  it("marks the directive failed and returns instead of throwing when the researcher fails", async () => {
    const { store, directives } = await newRun(handle, ["Topic Tau: failing model"]);
    const [d] = directives;
    const researcher = scriptedModel([
      apiError({ status: 401, body: { error: { message: "Incorrect API key provided" } } }),
    ]);
    const { deps, events } = makeDeps({ store, models: { researcher } });

    const out = await executeDirective(deps, d, ctx());

    expect(out).toEqual({ directiveId: d.id, findings: "", sourceIds: [], ok: false });
    const [row] = await store.listDirectives();
    expect(row.status).toBe("failed");
    expect(row.error).toContain("Incorrect API key provided");
    expect(eventsOf(events, "directive.failed")).toEqual([
      { type: "directive.failed", directiveId: d.id, error: row.error },
    ]);
    expect(await store.getResearcherResult(d.id)).toBeUndefined();
  });

  it("lets a cancellation through without marking the directive failed", async () => {
    const { store, directives } = await newRun(handle, ["Topic Upsilon: cancelled"]);
    const controller = new AbortController();
    const researcher = researcherModel({
      "Topic Upsilon": [
        () => {
          controller.abort(new Error("cancelled by user"));
          return toolCalls([["think", { reflection: "x" }]]);
        },
      ],
    });
    const { deps, events } = makeDeps({ store, models: { researcher }, signal: controller.signal });

    await expect(executeDirective(deps, directives[0], ctx())).rejects.toThrow("cancelled by user");
    expect(eventsOf(events, "directive.failed")).toHaveLength(0);
    expect(await store.getResearcherResult(directives[0].id)).toBeUndefined();
  });

  it("lets an exhausted run budget through", async () => {
    const { store, directives } = await newRun(handle, ["Topic Phi: over budget"]);
    const budget = new BudgetExceededError({ limit: "cost", max: 1, used: 1.2 });
    const { deps, events } = makeDeps({ store, models: { researcher: scriptedModel([budget]) } });

    await expect(executeDirective(deps, directives[0], ctx())).rejects.toBe(budget);
    expect(eventsOf(events, "directive.failed")).toHaveLength(0);
  });
});
