import http from "node:http";
import type { AddressInfo } from "node:net";
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
import { until } from "../../../../test/support/until.ts";
import { fetchDocument } from "../../../fetch/extract.ts";
import type { RunStore } from "../../store.ts";
import { computeCoverage } from "../supervision/coverage.ts";
import { runResearcher } from "./researcher.ts";

const engine = engineDbForFile();

const ctx = () => researcherContext("I want to understand database indexing in 2025.");

describe("sources read versus seen", () => {
  it("reads a text/plain page with NUL characters: stored without them, the read succeeds", async () => {
    const { store, directives } = await newRun(engine.handle, ["Topic Nu: log formats"]);
    const server = http.createServer((_req, res) => {
      res.writeHead(200, { "content-type": "text/plain; charset=utf-8" });
      res.end("Log lines end with a NUL\u0000 byte in this format.\u0000\nThey are 512 bytes long.");
    });
    await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
    const host = `127.0.0.1:${(server.address() as AddressInfo).port}`;
    const page = `http://${host}/format.txt`;
    try {
      const web = fakeWeb({ results: { formats: [hit(page, "Log format")] } });
      const model = researcherModel({
        "Topic Nu": [search("formats"), think("Read it."), extract(page), think("Enough."), complete()],
      });
      const { deps, events } = makeDeps({ store, models: { researcher: model }, web });
      // The real fetch and extraction, not the fake web's pages.
      deps.fetchDocument = (url, f) => fetchDocument(url, { allowedHosts: [host], signal: f.signal });

      await runResearcher(deps, directives[0], ctx());

      const [read] = await store.listDirectiveSources(directives[0].id);
      expect(read).toMatchObject({ url: page, read: true });
      expect(read.content).toBe("Log lines end with a NUL byte in this format.\nThey are 512 bytes long.");
      expect(events.filter((e) => e.type === "researcher.fetch")).toMatchObject([{ url: page, ok: true }]);
    } finally {
      await new Promise<void>((r) => server.close(() => r()));
    }
  });

  it("says why the real fetcher could not read a page by its code: the HTTP status, the content type", async () => {
    const { store, directives } = await newRun(engine.handle, ["Topic Upsilon: archives"]);
    const server = http.createServer((req, res) => {
      if (req.url === "/gone") res.writeHead(404, { "content-type": "text/html" }).end("gone");
      else res.writeHead(200, { "content-type": "application/zip" }).end("PK");
    });
    await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
    const host = `127.0.0.1:${(server.address() as AddressInfo).port}`;
    const [gone, zip] = [`http://${host}/gone`, `http://${host}/data.zip`];
    try {
      const web = fakeWeb({ results: { archives: [hit(gone, "Gone"), hit(zip, "Data")] } });
      const model = researcherModel({
        "Topic Upsilon": [
          search("archives"),
          think("Read."),
          extract(gone),
          think("Next."),
          extract(zip),
          think("Done."),
          complete(),
        ],
      });
      const { deps, events } = makeDeps({ store, models: { researcher: model }, web });
      deps.fetchDocument = (url, f) => fetchDocument(url, { allowedHosts: [host], signal: f.signal });

      await runResearcher(deps, directives[0], ctx());

      const fetches = events.filter((e) => e.type === "researcher.fetch");
      expect(fetches.map((e) => [e.url, e.ok, e.reason, e.because])).toEqual([
        [gone, false, "HTTP 404", { code: "fetch_http_error", values: { status: 404 } }],
        [
          zip,
          false,
          expect.stringMatching(/^Content type application\/zip is not fetched/),
          {
            code: "fetch_content_type",
            values: { type: "application/zip" },
          },
        ],
      ]);
    } finally {
      await new Promise<void>((r) => server.close(() => r()));
    }
  });

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
    const { deps, events } = makeDeps({ store, models: { researcher: model }, web });
    const shared = ctx();

    await runResearcher(deps, directives[0], shared);
    await runResearcher(deps, directives[1], shared);

    expect(web.fetches).toEqual([page]);
    expect(events.filter((e) => e.type === "researcher.fetch").map((e) => e.because)).toEqual([
      undefined,
      { code: "fetch_already_read" },
    ]);
    for (const d of directives) {
      expect((await store.listDirectiveSources(d.id)).map((s) => [s.url, s.read])).toEqual([[page, true]]);
    }
  });

  it("reads its own search hit without linking it again, and announces each read in one block", async () => {
    const { store: inner, directives } = await newRun(engine.handle, ["Topic Sigma: partial indexes"]);
    const hitPage = "https://example-db.io/docs/partial";
    const briefPage = "https://example-db.io/blog/partial-indexes";
    const links: string[] = [];
    const store: RunStore = {
      ...inner,
      addSource: (directiveId, input) => {
        links.push(input.url);
        return inner.addSource(directiveId, input);
      },
    };
    const web = fakeWeb({
      results: { partial: [hit(hitPage, "Partial indexes")] },
      pages: {
        [hitPage]: "A partial index covers a subset of rows.",
        [briefPage]: "Partial indexes save space.",
      },
    });
    const model = researcherModel({
      "Topic Sigma": [
        search("partial"),
        think("Read both."),
        extract(hitPage),
        think("Now the one from the brief."),
        extract(briefPage),
        think("Enough."),
        complete(),
      ],
    });
    const { deps } = makeDeps({ store, models: { researcher: model }, web });
    const blocks: string[][] = [];
    deps.events = {
      emit: async (e) => void blocks.push([e.type]),
      emitMany: async (es) => void blocks.push(es.map((e) => e.type)),
    };

    await runResearcher(deps, directives[0], researcherContext("Partial indexes.", [briefPage]));

    // The hit was linked by the search: reading it writes its text and read mark, not the link again.
    // The page from the brief is new: stored once.
    expect(links).toEqual([briefPage]);
    const fetchBlocks = blocks.filter((b) => b.includes("researcher.fetch"));
    expect(fetchBlocks).toEqual([["researcher.fetch"], ["source.added", "researcher.fetch"]]);
    expect((await inner.listDirectiveSources(directives[0].id)).map((s) => [s.url, s.read])).toEqual([
      [hitPage, true],
      [briefPage, true],
    ]);
  });

  it("does not wait for its events to be written before its next call, and returns once they are", async () => {
    const { store, directives } = await newRun(engine.handle, ["Topic Kappa: covering indexes"]);
    const page = "https://example-db.io/docs/covering";
    const web = fakeWeb({
      results: { covering: [hit(page, "Covering indexes")] },
      pages: { [page]: "A covering index holds every column a query reads." },
    });
    const model = researcherModel({
      "Topic Kappa": [search("covering"), think("Read it."), extract(page), think("Done."), complete()],
    });
    const { deps } = makeDeps({ store, models: { researcher: model }, web });
    // A sink that writes nothing until released: the events queue up behind the researcher.
    const written: string[] = [];
    let release = () => {};
    const gate = new Promise<void>((resolve) => {
      release = resolve;
    });
    deps.events = {
      emit: async (e) => {
        await gate;
        written.push(e.type);
      },
      emitMany: async (es) => {
        await gate;
        written.push(...es.map((e) => e.type));
      },
    };
    let returned = false;
    const running = runResearcher(deps, directives[0], ctx()).then((o) => {
      returned = true;
      return o;
    });
    // It searched, thought and read the page although none of its events is written yet.
    expect(await until(() => web.fetches.length > 0, 10_000)).toBe(true);
    expect(web.fetches).toEqual([page]);
    expect(written).toEqual([]);
    expect(returned).toBe(false);
    release();
    expect((await running).stopReason).toBe("complete");
    expect(written[0]).toBe("researcher.search");
    expect(written.at(-1)).toBe("researcher.complete");
    expect(written.indexOf("researcher.search_results")).toBeLessThan(written.indexOf("researcher.fetch"));
  });

  it("stores a page read behind its next model call, and knows the page as its source when it returns", async () => {
    const { store: inner, directives } = await newRun(engine.handle, ["Topic Lambda: BRIN indexes"]);
    const page = "https://example-db.io/docs/brin";
    // The read mark stays unwritten until released.
    let release = () => {};
    const gate = new Promise<void>((resolve) => {
      release = resolve;
    });
    let marked = false;
    const store: RunStore = {
      ...inner,
      markSourceRead: async (directiveId, sourceId) => {
        await gate;
        await inner.markSourceRead(directiveId, sourceId);
        marked = true;
      },
    };
    const web = fakeWeb({
      results: { brin: [hit(page, "BRIN indexes")] },
      pages: { [page]: "A BRIN index summarises block ranges." },
    });
    let callsBeforeMark = 0;
    const model = researcherModel({
      "Topic Lambda": [
        search("brin"),
        think("Read it."),
        extract(page),
        () => {
          if (!marked) callsBeforeMark++;
          return think("It summarises block ranges.");
        },
        complete(),
      ],
    });
    const { deps } = makeDeps({ store, models: { researcher: model }, web });
    const running = runResearcher(deps, directives[0], researcherContext("BRIN indexes.", []));
    await new Promise((r) => setTimeout(r, 100));
    release();
    const outcome = await running;
    // The model was asked again while the page's read mark was still being written.
    expect(callsBeforeMark).toBe(1);
    const sources = await inner.listDirectiveSources(directives[0].id);
    expect(sources.map((s) => [s.url, s.read])).toEqual([[page, true]]);
    expect(outcome.sourceIds).toEqual(sources.map((s) => s.id));
  });

  it("stores a search's hits beside its next model call; a read of one of them waits for its row", async () => {
    const { store: inner, directives } = await newRun(engine.handle, ["Topic Mu: hash indexes"]);
    const page = "https://example-db.io/docs/hash";
    let release = () => {};
    const gate = new Promise<void>((resolve) => {
      release = resolve;
    });
    let hitsStored = false;
    const store: RunStore = {
      ...inner,
      addSources: async (directiveId, inputs) => {
        await gate;
        const r = await inner.addSources(directiveId, inputs);
        hitsStored = true;
        return r;
      },
    };
    const web = fakeWeb({
      results: { hash: [hit(page, "Hash indexes")] },
      pages: { [page]: "A hash index answers equality lookups." },
    });
    let thoughtBeforeStored = false;
    const model = researcherModel({
      "Topic Mu": [
        search("hash"),
        () => {
          thoughtBeforeStored = !hitsStored;
          return think("Read it.");
        },
        extract(page),
        think("Done."),
        complete(),
      ],
    });
    const { deps } = makeDeps({ store, models: { researcher: model }, web });
    const running = runResearcher(deps, directives[0], researcherContext("Hash indexes.", []));
    await new Promise((r) => setTimeout(r, 100));
    // Asked to reflect while the hit's row was still being written; the read of the hit waits for it.
    expect(thoughtBeforeStored).toBe(true);
    expect(web.fetches).toEqual([]);
    release();
    const outcome = await running;
    expect(web.fetches).toEqual([page]);
    const sources = await inner.listDirectiveSources(directives[0].id);
    expect(sources.map((s) => [s.url, s.read])).toEqual([[page, true]]);
    expect(outcome.sourceIds).toEqual(sources.map((s) => s.id));
  });
});
