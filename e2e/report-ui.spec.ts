/**
 * The finished report as its reader uses it: citation markers link to their source entry and show
 * their verdict; hovering or focusing one shows the stored passage (the same as the API's); the
 * export bar copies and downloads; printing keeps the report alone; a share link made in the page
 * (also without JavaScript) opens for a stranger without navigation, with preview metadata, and
 * 404s once revoked in the page.
 */
import { expect, type Page, test } from "@playwright/test";
import { scriptLlm, waitForIdle, waitForStatus, webUrl } from "./support/helpers.ts";
import { researchScript } from "./support/research-script.ts";
import { signedOut, storageStatePath } from "./support/session.ts";

const question = "Heat pump or gas boiler in a cold climate: which costs less to run?";
const slug = "heat-pump-or-gas-boiler-in-a-cold-climate-which-costs-less-to-run.md";
const VERDICT_WORDS: Record<string, string> = {
  supported: "Supported by the source",
  partially_supported: "Partly supported by the source",
  unsupported: "Not supported by the source",
  unchecked: "Not checked",
};

interface ApiCitation {
  number: number;
  sourceId: string;
  support: string;
  passage?: string | null;
}

test.beforeEach(async ({ request }) => {
  await waitForIdle(request);
});

/** The first citation marker's card, opened by hovering, with the verdict it shows. */
async function hoverFirstMarker(page: Page) {
  const marker = page.locator("a[data-citation]").first();
  await marker.hover();
  const card = page.getByTestId("citation-card");
  await expect(card).toBeVisible();
  return { marker, card };
}

test("a checkable report: citations with passages and verdicts, export, print and sharing", async ({
  page,
  request,
  browser,
  context,
}) => {
  await scriptLlm(researchScript({ webUrl: webUrl() }));
  const created = await request.post("/api/runs", { data: { question } });
  expect(created.status()).toBe(201);
  const id = (await created.json()).id as string;
  const run = (await waitForStatus(request, id, ["completed"])) as {
    citations: ApiCitation[];
    report: string;
  };
  expect(run.citations.length).toBeGreaterThan(0);

  // The stored report is rendered by the server: the page as served (before any script) holds the
  // report and its markers, and does not carry the report's Markdown nor each marker's card again.
  const served = await (await request.get(`/runs/${id}`)).text();
  for (const c of run.citations) expect(served).toContain(`data-citation="${c.number}"`);
  expect(served).toContain('id="source-1"');
  // Its paragraphs with a marker, as Markdown (lines without characters the page would escape).
  const markdownLines = run.report.split("\n").filter((l) => /\S \[\d+\]/.test(l) && /^[^"<>&\\]+$/.test(l));
  expect(markdownLines.length).toBeGreaterThan(0);
  for (const line of markdownLines) expect(served).not.toContain(line);
  expect(served).not.toContain(`/api/runs/${id}/sources/`);

  await page.goto(`/runs/${id}`);
  const report = page.getByRole("region", { name: "Report", exact: true });
  await expect(report.getByRole("heading", { name: "Sources" })).toBeVisible();
  // One H1 on the page: the question in the header; the report's own headings sit below it.
  await expect(page.locator("h1")).toHaveCount(1);
  await expect(report.locator("h1")).toHaveCount(0);

  // Every marker links to its entry in the Sources list and names its verdict.
  const markers = report.locator("a[data-citation]");
  expect(await markers.count()).toBeGreaterThan(0);
  for (const marker of await markers.all()) {
    const n = await marker.getAttribute("data-citation");
    const verdict = (await marker.getAttribute("data-verdict"))!;
    await expect(marker).toHaveAttribute("href", `#source-${n}`);
    await expect(marker).toHaveAccessibleName(`Source ${n}, ${VERDICT_WORDS[verdict].toLowerCase()}`);
    await expect(report.locator(`#source-${n}`)).toHaveCount(1);
    expect(run.citations.filter((c) => c.number === Number(n)).map((c) => c.support)).toContain(verdict);
  }

  // Hover: the card shows the stored passage and the verdict, as the source's API view has them.
  const { marker, card } = await hoverFirstMarker(page);
  const n = Number(await marker.getAttribute("data-citation"));
  const verdict = (await marker.getAttribute("data-verdict"))!;
  const sourceId = run.citations.find((c) => c.number === n)!.sourceId;
  const view = await (await request.get(`/api/runs/${id}/sources/${sourceId}`)).json();
  const passage = (view.citations as ApiCitation[]).find((c) => c.number === n && c.support === verdict)!
    .passage!;
  // The card highlights the stored passage's sentence that best matches the claim; "show more" gives it all.
  expect(passage).toContain(String(await card.getByTestId("citation-passage").locator("mark").textContent()));
  const more = card.getByRole("button", { name: "Show more of the passage" });
  if (await more.count()) await more.click();
  await expect(card.getByTestId("citation-passage")).toHaveText(passage.trim());
  await expect(card).toContainText(VERDICT_WORDS[verdict]);
  await expect(card).toContainText(view.domain);
  await expect(card.locator("img")).toHaveCount(0);
  // Escape closes it; keyboard focus opens it again.
  await page.keyboard.press("Escape");
  await expect(card).toHaveCount(0);
  await page.mouse.move(0, 0);
  await marker.focus();
  await expect(page.getByTestId("citation-card").locator("mark")).toBeVisible();
  await marker.blur();

  // The Sources panel separates what the report cites from what was only read or found.
  await page.getByRole("tab", { name: /^Sources/ }).click();
  const sources = page.getByRole("region", { name: "Sources" });
  await expect(sources.getByRole("heading", { name: "Cited in the report" })).toBeVisible();
  await expect(sources.getByRole("list", { name: "Cited in the report" })).toContainText(/read in full/);
  await expect(sources).not.toContainText("Sources gathered");

  // Copy as Markdown, with a visible confirmation.
  await context.grantPermissions(["clipboard-read", "clipboard-write"]);
  await report.getByRole("button", { name: "Copy as Markdown" }).click();
  await expect(report.getByRole("status")).toHaveText("Copied the report as Markdown.");
  expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(run.report);

  // Download: an attachment named from the question.
  const [download] = await Promise.all([
    page.waitForEvent("download"),
    report.getByRole("link", { name: "Download" }).click(),
  ]);
  expect(download.suggestedFilename()).toBe(slug);
  const md = await request.get(`/api/runs/${id}/report.md?download=1`);
  expect(md.headers()["content-disposition"]).toBe(`attachment; filename="${slug}"`);

  // Printing keeps the question, the report and the sources; controls and navigation go.
  await page.emulateMedia({ media: "print" });
  await expect(report).toBeVisible();
  await expect(page.locator("h1")).toBeVisible();
  await expect(page.getByRole("navigation")).toBeHidden();
  await expect(page.getByRole("region", { name: "Share" })).toBeHidden();
  await expect(report.getByRole("button", { name: "Copy as Markdown" })).toBeHidden();
  await page.emulateMedia({ media: "screen" });

  // A share link made in the page.
  const panel = page.getByRole("region", { name: "Share" });
  await panel.getByLabel("Label").fill("for the reader");
  await panel.getByRole("button", { name: "Create link" }).click();
  const link = panel.getByLabel("New share link");
  await expect(link).toHaveValue(/\/share\/[A-Za-z0-9_-]{43}$/);
  const url = await link.inputValue();

  // A stranger: the report, its date and sources, citation cards from the page itself, no navigation.
  const stranger = await browser.newContext({ storageState: signedOut });
  try {
    const shared = await stranger.newPage();
    const apiCalls: string[] = [];
    shared.on("request", (r) => {
      if (new URL(r.url()).pathname.startsWith("/api/")) apiCalls.push(r.url());
    });
    expect((await shared.goto(url))?.status()).toBe(200);
    await expect(shared.getByRole("heading", { level: 1 })).toHaveText(question);
    await expect(shared.getByText(question)).toHaveCount(1);
    await expect(shared.getByRole("heading", { name: "Sources" })).toBeVisible();
    await expect(shared.getByRole("navigation")).toHaveCount(0);
    await expect(shared.locator('meta[property="og:title"]')).toHaveAttribute("content", question);
    await expect(shared.locator('meta[property="og:type"]')).toHaveAttribute("content", "article");
    await expect(shared.locator('meta[property="og:description"]')).toHaveAttribute("content", /\S/);
    await expect(shared.locator('meta[property="og:image"]')).toHaveCount(0);
    const card2 = (await hoverFirstMarker(shared)).card;
    await expect(card2).toContainText(VERDICT_WORDS[verdict]);
    expect(passage).toContain(
      String(await card2.getByTestId("citation-passage").locator("mark").textContent()),
    );
    expect(apiCalls).toEqual([]);

    // Revoked in the page: the link no longer opens.
    const listed = panel.getByRole("list", { name: "Share links" }).getByRole("listitem");
    // Revoke asks first; "Keep it" changes nothing.
    const item = listed.filter({ hasText: "for the reader" });
    await item.getByText("Revoke…").click();
    await item.getByRole("button", { name: "Keep it" }).click();
    await expect(item.getByRole("button", { name: "Revoke the link" })).toBeHidden();
    await item.getByText("Revoke…").click();
    await item.getByRole("button", { name: "Revoke the link" }).click();
    await expect(listed.filter({ hasText: "for the reader" })).toContainText("revoked");
    // The revoked link: still a 404, with a page that says what happened.
    expect((await shared.goto(url))?.status()).toBe(404);
    await expect(shared.getByTestId("dead-share")).toHaveAttribute("data-reason", "revoked");
    await expect(shared.getByRole("heading", { level: 1 })).toHaveText("This share link was withdrawn");
  } finally {
    await stranger.close();
  }

  // Without JavaScript the share form still works: the server action answers the plain form post.
  const noJs = await browser.newContext({ javaScriptEnabled: false, storageState: storageStatePath });
  try {
    const plain = await noJs.newPage();
    await plain.goto(`/runs/${id}`);
    const form = plain.getByRole("form", { name: "Create a share link" });
    await form.getByLabel("Label").fill("made without script");
    await form.getByRole("button", { name: "Create link" }).click();
    await expect(plain.getByLabel("New share link")).toHaveValue(/\/share\/[A-Za-z0-9_-]{43}$/);
    const { shares } = await (await request.get(`/api/runs/${id}/shares`)).json();
    expect(shares.map((s: { label: string }) => s.label)).toContain("made without script");
  } finally {
    await noJs.close();
  }
});

/** A long report whose paragraphs start with different words (the reading-position key is letters only). */
function longReport(paragraphs: number): string {
  const tag = (i: number) =>
    String.fromCharCode(97 + Math.floor(i / 26)) + String.fromCharCode(97 + (i % 26));
  const body = Array.from(
    { length: paragraphs },
    (_, i) =>
      `Finding ${tag(i)}${tag(i)}${tag(i)} shows that heat pumps keep a seasonal efficiency well above one in cold weather, and that running costs depend on the local prices of electricity and gas [1].`,
  );
  return `## Findings\n\n${body.join("\n\n")}\n`;
}

test("the reader keeps their place when the draft becomes the report and when the run ends", async ({
  page,
  request,
}) => {
  const rules = researchScript({ webUrl: webUrl() });
  const synthesis = rules.find((r) => r.name === "synthesis");
  if (!synthesis) throw new Error("the research script has no synthesis rule");
  // The draft streams for about ten seconds, so the reader can scroll into it before it is stored,
  // even on a busy CI machine.
  synthesis.replies = [{ kind: "text", text: longReport(40), chunkDelayMs: 30 }];
  await scriptLlm(rules);
  const { id } = await (await request.post("/api/runs", { data: { question } })).json();
  await page.setViewportSize({ width: 1280, height: 720 });
  await page.goto(`/runs/${id}`);

  const report = page.getByRole("region", { name: "Report", exact: true });
  await expect(report.getByText("Draft: the report is being written.")).toBeVisible({ timeout: 60_000 });
  const reading = report.locator("p", { hasText: /^Finding akakak / });
  await expect(reading).toBeVisible({ timeout: 30_000 });
  await reading.evaluate((el) => el.scrollIntoView({ block: "start" }));
  await page.waitForTimeout(100);
  const before = (await reading.boundingBox())?.y ?? Number.NaN;
  await expect(report.getByText("Draft: the report is being written.")).toBeVisible();

  // The stored report replaces the draft (the export bar appears above the text): same place.
  await expect(report.getByRole("button", { name: "Copy as Markdown" })).toBeVisible({ timeout: 30_000 });
  expect(Math.abs(((await reading.boundingBox())?.y ?? Number.NaN) - before)).toBeLessThanOrEqual(2);

  // The run ends and the page puts the report first (the panels above it go into tabs): same place.
  await waitForStatus(request, id, ["completed"]);
  await expect(page.getByTestId("run-status")).toHaveAttribute("data-status", "completed");
  await expect(page.getByRole("tab", { name: "Activity" })).toBeVisible();
  expect(Math.abs(((await reading.boundingBox())?.y ?? Number.NaN) - before)).toBeLessThanOrEqual(2);
});
