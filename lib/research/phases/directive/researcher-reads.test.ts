import { describe, expect, it } from "vitest";
import {
  completeCall as complete,
  engineDbForFile,
  extractCall as extract,
  fakeWeb,
  hit,
  makeDeps,
  newRun,
  researcherContext,
  researcherModel,
  searchCall as search,
  thinkCall as think,
} from "../../../../test/support/researcher-harness.ts";
import { computeCoverage } from "../supervision/coverage.ts";
import { runResearcher } from "./researcher.ts";

const engine = engineDbForFile();

const ctx = () => researcherContext("I want to understand database indexing in 2025.");

describe("sources read versus seen", () => {
  it("marks only the pages a researcher read; the rest of its search hits stay seen", async () => {
    const { store, directives } = await newRun(engine.handle, ["Topic Omega: index types"]);
    const docs = "https://example-db.io/docs/indexes";
    const hits = [docs, ...["a", "b", "c", "d"].map((p) => `https://blog-${p}.example.com/post`)];
    const web = fakeWeb({
      results: { indexes: hits.map((u, i) => hit(u, `Result ${i}`)) },
      pages: { [docs]: "B-tree indexes are the default; see also https://doi.org/10.1145/1234567." },
    });
    const model = researcherModel({
      "Topic Omega": [
        search("indexes"),
        think("Read the docs."),
        extract(docs),
        think("Enough."),
        complete(),
      ],
    });
    const { deps } = makeDeps({ store, models: { researcher: model }, web });

    await runResearcher(deps, directives[0], ctx());

    const linked = await store.listDirectiveSources(directives[0].id);
    expect(linked).toHaveLength(5);
    expect(linked.filter((s) => s.read).map((s) => s.url)).toEqual([docs]);
    // The hit was judged "docs" by its URL (MEDIUM); the text read shows a DOI, so it is re-judged.
    expect(linked.find((s) => s.url === docs)?.quality).toBe("HIGH");

    const report = computeCoverage(
      {
        directives: [{ ...directives[0], status: "done" }],
        sourcesByDirective: new Map([[directives[0].id, linked]]),
        findingsByDirective: new Map([[directives[0].id, `B-trees [1].\n\n### Sources\n[1] ${docs}`]]),
        seenSources: linked.length,
      },
      { minSourcesPerQuery: 2, coverageThreshold: 0.75 },
    );
    expect(report.directives[0]).toMatchObject({ sourceCount: 1, seenCount: 5, citedCount: 1 });
    expect(report.totalSources).toBe(1);
  });

  it("counts a page another researcher already read as read here when its text is shown", async () => {
    const { store, directives } = await newRun(engine.handle, ["Topic Psi: hash indexes", "Topic Chi: GiST"]);
    const page = "https://docs.example-db.io/hash";
    const web = fakeWeb({
      results: { hash: [hit(page, "Hash indexes")] },
      pages: { [page]: "Hash indexes support equality only." },
    });
    const model = researcherModel({
      "Topic Psi": [search("hash"), think("Read it."), extract(page), think("Done."), complete()],
      "Topic Chi": [search("hash"), think("Same page."), extract(page), think("Done."), complete()],
    });
    const { deps } = makeDeps({ store, models: { researcher: model }, web });
    const shared = ctx();

    await runResearcher(deps, directives[0], shared);
    await runResearcher(deps, directives[1], shared);

    expect(web.fetches).toEqual([page]);
    for (const d of directives) {
      expect((await store.listDirectiveSources(d.id)).map((s) => [s.url, s.read])).toEqual([[page, true]]);
    }
  });
});
