// The researcher's stop rules driven through the real loop with mock models: each test scripts
// more steps than the rule allows, so a step the model is never asked for proves the stop.
import { describe, expect, it } from "vitest";
import { scriptedModel, textResult } from "../../../../test/support/ai-mocks.ts";
import {
  completeCall as complete,
  engineDbForFile,
  eventsOf,
  extractCall as extract,
  fakeWeb,
  hit,
  lastToolResults,
  makeDeps,
  newRun,
  researcherContext,
  researcherModel,
  searchCall as search,
  thinkCall as think,
} from "../../../../test/support/researcher-harness.ts";
import { runResearcher } from "./researcher.ts";

const engine = engineDbForFile();

const ctx = () => researcherContext("I want to understand district heating networks.");
const hits = (...paths: string[]) => paths.map((p) => hit(`https://${p}`, `Page ${p}`));

describe("researcher stop rules", () => {
  it("stops after reflecting on two consecutive searches with similar results", async () => {
    const { store, directives } = await newRun(engine.handle, ["Topic Kappa: district heating losses"]);
    const web = fakeWeb({
      results: {
        "district heating losses": hits("a.org/1", "b.org/2", "c.org/3"),
        // Three of the four URLs are the previous search's: Jaccard 3/4 = 0.75 ≥ 0.6.
        "heat network losses": hits("a.org/1", "b.org/2", "c.org/3", "d.org/4"),
        "never searched": hits("e.org/5"),
      },
    });
    const model = researcherModel({
      "Topic Kappa": [
        search("district heating losses"),
        think("Three sources; try another wording."),
        search("heat network losses"),
        think("Mostly the same pages again."),
        search("never searched"),
        think("unreachable"),
        complete(),
      ],
    });
    const { deps, events } = makeDeps({ store, models: { researcher: model }, web });

    const out = await runResearcher(deps, directives[0], ctx());

    expect(out.stopReason).toBe("similar_searches");
    expect(out.toolCalls).toBe(2);
    expect(web.searches).toEqual(["district heating losses", "heat network losses"]);
    expect(model.doGenerateCalls).toHaveLength(4);
    expect(eventsOf(events, "researcher.stopped")).toEqual([
      {
        type: "researcher.stopped",
        directiveId: directives[0].id,
        reason: "similar_searches",
        counts: {
          searches: 2,
          sourcesRead: 0,
          relevantSources: 0,
          lastSearchOverlap: 0.75,
          toolCalls: 2,
          toolBudget: 10,
        },
      },
    ]);
    expect(eventsOf(events, "researcher.complete")).toMatchObject([
      { reason: "similar_searches", toolCalls: 2 },
    ]);
    // The last think reply (the final tool message of the history) says the research ends.
    const last = JSON.stringify(out.messages.at(-1));
    expect(last).toContain("[x] last two searches' overlap: 75% (stop at 60% or more)");
    expect(last).toContain("Stop rule met (the last two searches returned similar results)");
  });

  it("goes on after two searches that overlap below the threshold", async () => {
    const { store, directives } = await newRun(engine.handle, ["Topic Lambda: heat pump noise"]);
    const web = fakeWeb({
      results: {
        "heat pump noise": hits("a.org/1", "b.org/2", "c.org/3"),
        // One shared URL of five distinct: Jaccard 0.2.
        "heat pump noise limits": hits("a.org/1", "x.org/2", "y.org/3"),
      },
    });
    const model = researcherModel({
      "Topic Lambda": [
        search("heat pump noise"),
        think("Some results."),
        search("heat pump noise limits"),
        think("New pages this time."),
        complete("enough"),
      ],
    });
    const { deps, events } = makeDeps({ store, models: { researcher: model }, web });

    const out = await runResearcher(deps, directives[0], ctx());

    expect(out.stopReason).toBe("complete");
    expect(model.doGenerateCalls).toHaveLength(5);
    expect(eventsOf(events, "researcher.stopped")).toEqual([]);
    expect(JSON.stringify(out.messages)).toContain(
      "[ ] last two searches' overlap: 20% (stop at 60% or more)",
    );
  });

  it("stops once N read sources kept findings for the topic and a think has completed", async () => {
    const { store, directives } = await newRun(engine.handle, ["Topic Mu: geothermal borehole depth"]);
    const long = (body: string) => `${body} `.repeat(80);
    const web = fakeWeb({
      results: {
        "geothermal borehole depth": hits("gov.example/bore", "wiki.example/geo", "shop.example/sale"),
      },
      pages: {
        "https://gov.example/bore": "Geothermal borehole depth ranges from 100 to 200 metres.",
        // Long: summarised; the summariser finds nothing on the topic.
        "https://shop.example/sale": long("Garden furniture on sale this week."),
        "https://wiki.example/geo": long("A geothermal borehole is drilled to a depth set by the heat load."),
      },
    });
    const summarizer = scriptedModel(
      [
        textResult("NOTHING ON TOPIC. The page sells garden furniture."),
        textResult("Boreholes are drilled 100-200 m deep, depending on the heat load."),
      ],
      { modelId: "summarization" },
    );
    const model = researcherModel({
      "Topic Mu": [
        search("geothermal borehole depth"),
        think("Three candidates."),
        extract("https://gov.example/bore"),
        think("Depth range found."),
        extract("https://shop.example/sale"),
        think("Off topic."),
        extract("https://wiki.example/geo"),
        think("Confirmed by a second source."),
        search("unreachable"),
        complete(),
      ],
    });
    const { deps, events } = makeDeps({
      store,
      models: { researcher: model, summarization: summarizer },
      web,
      config: { relevantSourcesToStop: 2, summarizeOverChars: 500 },
    });

    const out = await runResearcher(deps, directives[0], ctx());

    expect(out.stopReason).toBe("relevant_sources");
    expect(out.toolCalls).toBe(4);
    // Stopped after the think that followed the second relevant read, not at the read itself.
    expect(model.doGenerateCalls).toHaveLength(8);
    expect(summarizer.doGenerateCalls).toHaveLength(2);
    expect(eventsOf(events, "researcher.stopped")).toMatchObject([
      {
        reason: "relevant_sources",
        counts: { searches: 1, sourcesRead: 3, relevantSources: 2, toolCalls: 4, lastSearchOverlap: null },
      },
    ]);
    // The reply to the think after the irrelevant read counted it as read, not as relevant.
    const afterOffTopic = lastToolResults(model.doGenerateCalls[6]).join("\n");
    expect(afterOffTopic).toContain("[ ] relevant sources read: 1 of 2 needed (2 read in all)");
    expect(JSON.stringify(out.messages.at(-1))).toContain(
      "[x] relevant sources read: 2 of 2 needed (3 read in all)",
    );
  });

  it("stops on the tool budget with a researcher.stopped event carrying the counts", async () => {
    const { store, directives } = await newRun(engine.handle, ["Topic Nu: solar thermal collectors"]);
    const web = fakeWeb({
      results: { "solar thermal": hits("a.org/1"), "collector efficiency": hits("b.org/2") },
    });
    const model = researcherModel({
      "Topic Nu": [
        search("solar thermal"),
        think("One result."),
        search("collector efficiency"),
        think("unreachable: the budget ends the research first"),
      ],
    });
    const { deps, events } = makeDeps({
      store,
      models: { researcher: model },
      web,
      config: { researcherToolBudget: 2 },
    });

    const out = await runResearcher(deps, directives[0], ctx());

    expect(out.stopReason).toBe("budget");
    expect(model.doGenerateCalls).toHaveLength(3);
    expect(eventsOf(events, "researcher.stopped")).toMatchObject([
      {
        reason: "budget",
        counts: { searches: 2, toolCalls: 2, toolBudget: 2, lastSearchOverlap: 0 },
      },
    ]);
  });

  it("answers think with the stop checklist and its current counts", async () => {
    const { store, directives } = await newRun(engine.handle, ["Topic Xi: wind turbine capacity factor"]);
    const web = fakeWeb({ results: { "capacity factor": hits("a.org/1", "b.org/2") } });
    const model = researcherModel({
      "Topic Xi": [search("capacity factor"), think("Two results."), complete()],
    });
    const { deps } = makeDeps({
      store,
      models: { researcher: model },
      web,
      config: { researcherToolBudget: 7 },
    });

    await runResearcher(deps, directives[0], ctx());

    const reply = lastToolResults(model.doGenerateCalls[2]).join("\n");
    expect(reply).not.toBe("Reflection recorded.");
    expect(reply).toContain("Stop checklist:");
    expect(reply).toContain("[ ] relevant sources read: 0 of 3 needed (0 read in all)");
    expect(reply).toContain("[ ] last two searches' overlap: n/a (1 search so far) (stop at 60% or more)");
    expect(reply).toContain("[ ] tool budget used: 1 of 7");
    expect(reply).not.toContain("Stop rule met");
  });
});
