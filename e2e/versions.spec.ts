/**
 * What changed between two reports, in Chromium. A run researched with the scripted model, and a
 * second report made from its bundle with one figure of a cited sentence changed and that claim's
 * source text changed (opened through POST /api/runs/import: the e2e app's database is not
 * reachable from here, so this is how a second report of the same question is made). The diff API
 * and the What changed page list the changed claim before and after, and the changed source; the
 * newer report on that page marks the changed passage. The version switcher itself needs runs
 * linked by versionOf, which only a refresh makes: its e2e comes with the refresh.
 */
import { expect, test } from "@playwright/test";
import { scriptLlm, waitForIdle, waitForStatus, webUrl } from "./support/helpers.ts";
import { researchScript } from "./support/research-script.ts";

interface Bundle {
  report: { markdown: string } | null;
  claims: { sentence: string; sourceId: string }[];
  sources: { id: string; url: string; content: string | null }[];
}

test("the diff of two reports: the changed figure before and after, the changed source, marked in the newer report", async ({
  page,
  request,
}) => {
  test.setTimeout(180_000);
  await waitForIdle(request);
  await scriptLlm(researchScript({ webUrl: webUrl() }));
  const created = await request.post("/api/runs", { data: { question: "Heat pumps in a cold climate?" } });
  expect(created.status()).toBe(201);
  const { id: older } = await created.json();
  await waitForStatus(request, older, ["completed"]);

  const bundle = (await (await request.get(`/api/runs/${older}/bundle`)).json()) as Bundle;
  expect(bundle.report?.markdown).toContain("between 2.5 and 3");
  const claim = bundle.claims.find((c) => c.sentence.includes("2.5 and 3"));
  const source = bundle.sources.find((s) => s.id === claim?.sourceId);
  expect(source?.content).toBeTruthy();
  if (!bundle.report || !source) throw new Error("no cited figure in the report");
  bundle.report.markdown = bundle.report.markdown.replace("between 2.5 and 3", "between 2.2 and 3");
  source.content = `${source.content} A newer measurement found 2.2.`;
  const imported = await request.post("/api/runs/import", { data: bundle });
  expect(imported.status()).toBe(201);
  const { id: newer } = await imported.json();

  const diff = await (await request.get(`/api/runs/${newer}/diff?against=${older}`)).json();
  expect(diff.differ).toBe(true);
  expect(diff.claims.changed).toHaveLength(1);
  expect(diff.claims.changed[0].before.text).toContain("between 2.5 and 3");
  expect(diff.claims.changed[0].after.text).toContain("between 2.2 and 3");
  expect(diff.claims.added).toEqual([]);
  expect(diff.claims.removed).toEqual([]);
  expect(diff.sources.changed.map((s: { url: string }) => s.url)).toEqual([source.url]);
  const same = await (await request.get(`/api/runs/${older}/diff?against=${older}`)).json();
  expect(same.differ).toBe(false);

  await page.goto(`/runs/${newer}/changes?against=${older}`);
  await expect(page.getByRole("heading", { name: "What changed", level: 1 })).toBeVisible();
  await expect(page.getByRole("heading", { name: "1 changed claim", exact: true })).toBeVisible();
  const pair = page
    .getByRole("listitem")
    .filter({ has: page.getByRole("heading", { name: "Before", exact: true }) });
  await expect(pair).toContainText("between 2.5 and 3");
  await expect(pair).toContainText("between 2.2 and 3");
  await expect(
    page.getByRole("heading", { name: "1 cited source's text changed", exact: true }),
  ).toBeVisible();
  await expect(page.getByRole("heading", { name: "No new claims", exact: true })).toBeVisible();
  const marked = page.locator('[data-change="changed"]');
  await expect(marked).toHaveCount(1);
  await expect(marked).toContainText("between 2.2 and 3");
  await expect(marked).toHaveAttribute("title", "Changed claim");

  // Another run that is not there (or not yours) is not found, in either place.
  const missing = "00000000-0000-4000-8000-000000000000";
  expect((await page.goto(`/runs/${newer}/changes?against=${missing}`))?.status()).toBe(404);
  expect((await request.get(`/api/runs/${missing}/diff?against=${older}`)).status()).toBe(404);
});
