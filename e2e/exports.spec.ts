/**
 * Exports that keep their evidence, in Chromium: a finished run's page downloads its report as a PDF
 * (read back with pdftotext) and a Word file (its footnotes hold the cited URLs), and the run as a
 * bundle; a fresh instance with its own data directory opens that bundle from its home page: the
 * same report text, the same verdicts, the stored passage on hover, the imported notice — and no
 * request to the web fixture or the model server while it does. A bundle of another schema version
 * is refused 422 and creates nothing.
 */
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { expect, type Page, test } from "@playwright/test";
import { unzipSync } from "fflate";
import { REQUEST_LOG_PATH } from "../test/support/web-fixture.ts";
import { llmRequests, scriptLlm, waitForIdle, waitForStatus, webUrl } from "./support/helpers.ts";
import { researchScript } from "./support/research-script.ts";
import { sessionHeaders, signUp } from "./support/session.ts";

interface RunJson {
  report: string;
  citations: { number: number; sourceId: string; support: string }[];
  sources: { id: string; url: string }[];
}

const fixturePaths = async (): Promise<string[]> =>
  (await (await fetch(`${webUrl()}${REQUEST_LOG_PATH}`)).json()).paths;

async function download(page: Page, name: string | RegExp): Promise<string> {
  const [file] = await Promise.all([page.waitForEvent("download"), page.getByRole("link", { name }).click()]);
  const to = path.join(os.tmpdir(), `dr-e2e-${Date.now()}-${file.suggestedFilename()}`);
  await file.saveAs(to);
  return to;
}

test("PDF, Word and a run bundle that another instance opens read-only without fetching anything", async ({
  page,
  request,
  browser,
}) => {
  test.setTimeout(180_000);
  await waitForIdle(request);
  await scriptLlm(researchScript({ webUrl: webUrl() }));
  const created = await request.post("/api/runs", { data: { question: "Heat pumps in a cold climate?" } });
  expect(created.status()).toBe(201);
  const { id } = await created.json();
  const run = (await waitForStatus(request, id, ["completed"])) as unknown as RunJson;
  const cited = run.sources.filter((s) => run.citations.some((c) => c.sourceId === s.id));

  await page.goto(`/runs/${id}`);
  // A paragraph of the report with a citation, as the page shows it: the imported run must show it too.
  const citing = page
    .getByRole("region", { name: "Report", exact: true })
    .locator("p", { has: page.locator("a[data-citation]") });
  const paragraph = ((await citing.first().textContent()) ?? "").replace(/\s+/g, " ").trim();
  expect(paragraph.length).toBeGreaterThan(20);
  const pdf = execFileSync("pdftotext", ["-enc", "UTF-8", await download(page, "PDF"), "-"], {
    encoding: "utf8",
  }).replace(/\s+/g, " ");
  expect(pdf).toContain("Heat pumps in a cold climate?");
  for (const s of cited) expect(pdf).toContain(s.url);
  const docx = unzipSync(new Uint8Array(fs.readFileSync(await download(page, "Word"))));
  const footnotes = new TextDecoder().decode(docx["word/footnotes.xml"]);
  for (const s of cited) expect(footnotes).toContain(s.url);
  const bundlePath = await download(page, "Run bundle");

  const env = JSON.parse(process.env.E2E_APP_ENV ?? "{}");
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "dr-e2e-import-"));
  const { startApp } = await import("./app-server.ts");
  const fresh = await startApp({ ...env, DATA_DIR: dir });
  try {
    const session = await signUp(fresh.url);
    const webBefore = (await fixturePaths()).length;
    const llmBefore = (await llmRequests()).length;

    // Another schema version is refused and creates nothing.
    const bundle = JSON.parse(fs.readFileSync(bundlePath, "utf8"));
    const refused = await fetch(`${fresh.url}/api/runs/import`, {
      method: "POST",
      headers: sessionHeaders(session, { "content-type": "application/json" }),
      body: JSON.stringify({ ...bundle, schemaVersion: 2 }),
    });
    expect(refused.status).toBe(422);

    // Opened from the fresh instance's home page, in a browser of its own (same host: its cookie).
    const context = await browser.newContext({ storageState: { cookies: session.cookies, origins: [] } });
    try {
      const other = await context.newPage();
      await other.goto(fresh.url);
      await other.getByText("Open a run bundle").click();
      await other.getByLabel("Run bundle file").setInputFiles(bundlePath);
      await other.getByRole("button", { name: "Open" }).click();
      await expect(other).toHaveURL(/\/runs\/[0-9a-f-]{36}$/);
      const importedId = other.url().split("/").at(-1) as string;
      expect(importedId).not.toBe(id);
      const report = other.getByRole("region", { name: "Report", exact: true });
      await expect(other.getByTestId("imported-notice")).toContainText(
        "as recorded by the original instance",
      );
      await expect(report).toContainText(paragraph);
      const marker = report.locator("a[data-citation]").first();
      await marker.hover();
      await expect(
        other.getByTestId("citation-card").getByTestId("citation-passage").first(),
      ).not.toBeEmpty();

      const imported = (await (
        await fetch(`${fresh.url}/api/runs/${importedId}`, { headers: sessionHeaders(session) })
      ).json()) as RunJson;
      expect(imported.report).toBe(run.report);
      expect(imported.citations.map((c) => [c.number, c.support])).toEqual(
        run.citations.map((c) => [c.number, c.support]),
      );
      const list = await (await fetch(`${fresh.url}/api/runs`, { headers: sessionHeaders(session) })).json();
      expect(list.runs).toHaveLength(1);
    } finally {
      await context.close();
    }
    // Nothing was fetched: the fixture saw only this test's own log reads, the model server nothing.
    expect((await fixturePaths()).slice(webBefore).filter((p) => p !== REQUEST_LOG_PATH)).toEqual([]);
    expect((await llmRequests()).length).toBe(llmBefore);
  } finally {
    await fresh.stop();
    fs.rmSync(dir, { recursive: true, force: true });
  }
});
