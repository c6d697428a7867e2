import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startWebFixture, type WebFixture } from "./web-fixture.ts";
import { PAGE_EDITS_PATH, PAGE_RESTORE_PATH } from "./web-fixture-edits.ts";

let web: WebFixture;

beforeAll(async () => {
  web = await startWebFixture();
});

afterAll(async () => {
  await web.close();
});

async function search(q: string) {
  const res = await fetch(`${web.url}/search?q=${encodeURIComponent(q)}&format=json`);
  expect(res.status).toBe(200);
  expect(res.headers.get("content-type")).toContain("application/json");
  return res.json();
}

describe("web fixture", () => {
  it("has 5-6 pages, one of them German", () => {
    expect(web.pages.length).toBeGreaterThanOrEqual(5);
    expect(web.pages.length).toBeLessThanOrEqual(6);
    expect(web.pages.some((p) => /Wärmepumpe/.test(p.title))).toBe(true);
  });

  it("search returns SearXNG's JSON shape", async () => {
    const body = await search("heat pump running costs");
    for (const key of ["answers", "corrections", "infoboxes", "suggestions", "unresponsive_engines"]) {
      expect(Array.isArray(body[key])).toBe(true);
    }
    expect(body.query).toBe("heat pump running costs");
    expect(body.number_of_results).toBe(body.results.length);
    const r = body.results[0];
    expect(r).toMatchObject({ engine: "fixture", engines: ["fixture"], category: "general", positions: [1] });
    expect(typeof r.score).toBe("number");
    expect(r.url).toMatch(new RegExp(`^${web.url}/pages/`));
    expect(r.parsed_url).toHaveLength(6);
    expect(r.parsed_url[1]).toBe(`127.0.0.1:${web.port}`);
    expect(r.content.length).toBeGreaterThan(20);
    expect(r.content.length).toBeLessThanOrEqual(220);
  });

  it("ranks the most relevant page first", async () => {
    const cases: [string, string][] = [
      ["heat pump performance in cold climates below freezing", "cold-climate-heat-pump-performance"],
      [
        "running costs heat pump versus gas boiler electricity price",
        "running-costs-heat-pump-vs-gas-boiler",
      ],
      ["CO2 emissions grid carbon intensity", "heating-emissions-comparison"],
      ["coefficient of performance COP SCOP", "heat-pump-efficiency-cop"],
      ["installation cost radiators noise", "heat-pump-installation-guide"],
      ["Wärmepumpe Altbau Vorlauftemperatur", "waermepumpe-altbau"],
    ];
    for (const [q, slug] of cases) {
      const body = await search(q);
      expect(body.results[0].url, q).toBe(`${web.url}/pages/${slug}.html`);
      const scores = body.results.map((r: { score: number }) => r.score);
      expect(scores, q).toEqual([...scores].sort((a, b) => b - a));
    }
  });

  it("returns no results for unrelated queries", async () => {
    const body = await search("quantum chromodynamics lattice");
    expect(body.results).toEqual([]);
    expect(body.number_of_results).toBe(0);
  });

  it("serves article pages as HTML with boilerplate around the article text", async () => {
    for (const page of web.pages) {
      const res = await fetch(page.url);
      expect(res.status).toBe(200);
      expect(res.headers.get("content-type")).toContain("text/html");
      const html = await res.text();
      expect(html).toContain("<article>");
      expect(html).toContain("<nav");
      expect(html).toContain("<footer");
      expect(html).toContain(`<title>`);
      // Every paragraph of the article appears (the texts contain no HTML-special chars but °, which is UTF-8).
      for (const para of page.text.split("\n\n")) expect(html).toContain(para);
    }
    const german = await (await fetch(`${web.url}/pages/waermepumpe-altbau.html`)).text();
    expect(german).toContain('<html lang="de">');
  });

  it("format other than json is forbidden like SearXNG", async () => {
    expect((await fetch(`${web.url}/search?q=heat&format=html`)).status).toBe(403);
    expect((await fetch(`${web.url}/search?q=heat`)).status).toBe(403);
  });

  it("serves the safe-fetch helper endpoints", async () => {
    const redirect = await fetch(`${web.url}/redirect?to=${encodeURIComponent(web.pages[0].url)}`, {
      redirect: "manual",
    });
    expect(redirect.status).toBe(302);
    expect(redirect.headers.get("location")).toBe(web.pages[0].url);

    const bin = await fetch(`${web.url}/binary`);
    expect(bin.headers.get("content-type")).toBe("application/octet-stream");
    expect((await bin.arrayBuffer()).byteLength).toBe(4096);

    const plain = await fetch(`${web.url}/plain.txt`);
    expect(plain.headers.get("content-type")).toContain("text/plain");
    expect(await plain.text()).toContain("seasonal performance factor");

    const big = await fetch(`${web.url}/big?mb=2`);
    expect(big.headers.get("content-type")).toContain("text/html");
    expect((await big.arrayBuffer()).byteLength).toBeGreaterThanOrEqual(2 * 1024 * 1024);

    // The slow endpoint starts answering but does not finish within a short timeout.
    const slow = await fetch(`${web.url}/slow?seconds=30&interval=50`, { signal: AbortSignal.timeout(400) });
    expect(slow.status).toBe(200);
    await expect(slow.text()).rejects.toThrow();

    expect((await fetch(`${web.url}/pages/nope.html`)).status).toBe(404);
  });

  it("serves an injection page outside search, and a collector that records every request", async () => {
    const page = await (await fetch(web.hostilePageUrl)).text();
    expect(page).toContain(`${web.url}/collect?data=`);
    expect(page).toContain('<a href="/pages/heat-pump-efficiency-cop.html">');
    expect(page).toContain('<a href="/collect/a1/?v=2&amp;lang=en">');
    const body = await search("heat pump field notes forum owners");
    expect(body.results.map((r: { url: string }) => r.url)).not.toContain(web.hostilePageUrl);

    expect(web.collected).toEqual([]);
    expect((await fetch(`${web.url}/collect?data=secret%20brief`)).status).toBe(200);
    expect(web.collected.map((r) => [r.method, r.url])).toEqual([["GET", "/collect?data=secret%20brief"]]);
    const served = await (await fetch(`${web.url}/__fixture/collected`)).json();
    expect(served.requests.map((r: { url: string }) => r.url)).toEqual(["/collect?data=secret%20brief"]);
  });

  it("changes a page's text and takes another down over HTTP (POST only), and restores both", async () => {
    const cold = `${web.url}/pages/cold-climate-heat-pump-performance.html`;
    const costs = `${web.url}/pages/running-costs-heat-pump-vs-gas-boiler.html`;
    const post = (path: string, body: unknown) =>
      fetch(`${web.url}${path}`, { method: "POST", body: JSON.stringify(body) });
    try {
      const edited = await post(`${PAGE_EDITS_PATH}/cold-climate-heat-pump-performance`, {
        replace: { from: "factors between 2 and 3", to: "factors between 2.2 and 3" },
      });
      expect(edited.status).toBe(200);
      expect(await (await fetch(cold)).text()).toContain("seasonal performance factors between 2.2 and 3");
      expect(
        (await post(`${PAGE_EDITS_PATH}/running-costs-heat-pump-vs-gas-boiler`, { remove: true })).status,
      ).toBe(200);
      expect((await fetch(costs)).status).toBe(410);
      const found = await search("running costs heat pump versus gas boiler electricity price");
      expect(found.results.map((r: { url: string }) => r.url)).not.toContain(costs);

      // Mistakes are refused, changing nothing; the app's GETs cannot edit.
      const missing = await post(`${PAGE_EDITS_PATH}/cold-climate-heat-pump-performance`, {
        replace: { from: "no such passage", to: "x" },
      });
      expect(missing.status).toBe(400);
      expect((await missing.json()).error).toContain("no such passage");
      expect((await post(`${PAGE_EDITS_PATH}/nope`, { remove: true })).status).toBe(404);
      expect((await post(`${PAGE_EDITS_PATH}/heat-pump-efficiency-cop`, { shout: 1 })).status).toBe(400);
      expect((await fetch(`${web.url}${PAGE_RESTORE_PATH}`)).status).toBe(405);
      expect((await fetch(cold)).status).toBe(200);
      expect((await fetch(`${web.url}/pages/heat-pump-efficiency-cop.html`)).status).toBe(200);
    } finally {
      expect((await post(PAGE_RESTORE_PATH, {})).status).toBe(200);
    }
    expect((await fetch(costs)).status).toBe(200);
    const restored = await (await fetch(cold)).text();
    expect(restored).toContain("seasonal performance factors between 2 and 3");
    expect((await search("running costs heat pump versus gas boiler electricity price")).results[0].url).toBe(
      costs,
    );
  });

  it("offers the same edits in process", async () => {
    const page = web.pages.find((p) => p.slug === "heat-pump-installation-guide")!;
    web.edits.replaceText(page.slug, "two to five days", "three to six days");
    expect(await (await fetch(page.url)).text()).toContain("three to six days");
    expect(() => web.edits.replaceText(page.slug, "two to five days", "x")).toThrow(/does not contain/);
    web.edits.remove(page.slug);
    expect((await fetch(page.url)).status).toBe(410);
    web.edits.restore();
    expect(await (await fetch(page.url)).text()).toContain("two to five days");
    // `pages` lists the originals throughout.
    expect(page.text).toContain("two to five days");
  });
});
