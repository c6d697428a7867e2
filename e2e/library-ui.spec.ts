/**
 * The document library page in Chromium: pasting text, uploading a Markdown file, fetching a URL
 * from the local web fixture, seeing the server's refusal of a private URL, and deleting a
 * document. Every change is also checked through GET /api/library.
 */
import { type APIRequestContext, expect, test } from "@playwright/test";
import { webUrl } from "./support/helpers.ts";

interface Doc {
  id: string;
  title: string;
  sourceUrl: string | null;
  mimeType: string;
  chars: number;
}

async function documents(request: APIRequestContext): Promise<Doc[]> {
  const r = await request.get("/api/library");
  expect(r.status()).toBe(200);
  return (await r.json()).documents;
}

test("add documents by pasting, uploading and fetching; refused URLs show the reason; delete", async ({
  page,
  request,
}) => {
  const stamp = Date.now().toString(36);
  await page.goto("/");
  await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Library" }).click();
  await expect(page).toHaveURL(/\/library$/);
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Document library");
  await expect(page.getByText("The library is the default search source")).toContainText(
    "SEARCH_PROVIDERS=library",
  );
  // The e2e app is configured to search the web fixture through SearXNG.
  await expect(page.getByTestId("search-providers")).toHaveText("This server searches: searxng.");

  const adder = page.getByRole("region", { name: "Add a document" });
  const table = page.getByRole("table");
  // Scoped to <main>: Next's route announcer is an alert region too.
  const status = page.getByRole("main").getByRole("status");
  const alert = page.getByRole("main").getByRole("alert");

  // 1. Paste Markdown text with a title.
  const pastedTitle = `Pasted heat pump notes ${stamp}`;
  const pasted = "# Notes\n\nA **heat pump** moves heat; its COP is often 3 to 4 at mild temperatures.";
  await expect(adder.getByRole("tab", { name: "Paste text" })).toHaveAttribute("aria-selected", "true");
  await expect(adder.getByRole("button", { name: "Add text" })).toBeDisabled();
  await adder.getByLabel("Title (optional)").fill(pastedTitle);
  await adder.getByLabel("Format").selectOption("markdown");
  await adder.getByLabel("Text", { exact: true }).fill(pasted);
  await adder.getByRole("button", { name: "Add text" }).click();
  await expect(status).toContainText(`Added “${pastedTitle}”`);
  await expect(adder.getByLabel("Text", { exact: true })).toHaveValue("");
  const pastedRow = table.getByRole("row").filter({ hasText: pastedTitle });
  await expect(pastedRow).toContainText("Markdown");
  await expect(pastedRow).toContainText("added directly");
  let pastedDoc = (await documents(request)).find((d) => d.title === pastedTitle);
  expect(pastedDoc).toMatchObject({ mimeType: "text/markdown", sourceUrl: null });
  await expect(pastedRow).toContainText(`${pastedDoc!.chars} chars`);
  expect(pastedDoc!.chars).toBeGreaterThan(40);

  // 2. Upload a Markdown file; without a title its first heading becomes the title.
  const uploadedTitle = `Uploaded radiator sizing guide ${stamp}`;
  await adder.getByRole("tab", { name: "Upload a file" }).click();
  await expect(adder.getByRole("button", { name: "Upload" })).toBeDisabled();
  await adder.getByLabel("File", { exact: true }).setInputFiles({
    name: `radiators-${stamp}.md`,
    mimeType: "text/markdown",
    buffer: Buffer.from(
      `# ${uploadedTitle}\n\nLow flow temperatures (35–45 °C) need larger radiators or underfloor heating.\n`,
    ),
  });
  await adder.getByRole("button", { name: "Upload" }).click();
  await expect(status).toContainText(`Added “${uploadedTitle}”`);
  const uploadedRow = table.getByRole("row").filter({ hasText: uploadedTitle });
  await expect(uploadedRow).toContainText("Markdown");
  expect((await documents(request)).find((d) => d.title === uploadedTitle)).toMatchObject({
    mimeType: "text/markdown",
    sourceUrl: null,
  });

  // 3. Fetch a page of the local web fixture: its readable text and title are stored.
  const url = `${webUrl()}/pages/heat-pump-efficiency-cop.html`;
  await adder.getByRole("tab", { name: "From a URL" }).click();
  await adder.getByLabel("URL", { exact: true }).fill(url);
  await adder.getByRole("button", { name: "Fetch and add" }).click();
  await expect(status).toContainText("Added “Heat pump efficiency explained");
  const fetchedRow = table.getByRole("row").filter({ has: page.getByRole("link", { name: url }) });
  await expect(fetchedRow).toHaveCount(1);
  await expect(fetchedRow).toContainText("Heat pump efficiency explained");
  await expect(fetchedRow).toContainText("HTML");
  const fetched = (await documents(request)).filter((d) => d.sourceUrl === url);
  expect(fetched).toHaveLength(1);
  expect(fetched[0].chars).toBeGreaterThan(1000);
  // Readability kept the article, not the page furniture.
  const full = await (await request.get(`/api/library/${fetched[0].id}`)).json();
  expect(full.document.content).toContain("coefficient of performance");
  expect(full.document.content).not.toContain("Save 10% on smart thermostats");

  // 4. A private address is refused by the server; its reason is shown and nothing is stored.
  const before = (await documents(request)).length;
  const metadataUrl = "http://169.254.169.254/latest/meta-data/";
  await adder.getByLabel("URL", { exact: true }).fill(metadataUrl);
  await adder.getByRole("button", { name: "Fetch and add" }).click();
  await expect(alert).toContainText("The URL could not be added");
  await expect(status).toHaveCount(0);
  await expect(adder.getByLabel("URL", { exact: true })).toHaveValue(metadataUrl);
  expect(await documents(request)).toHaveLength(before);
  await expect(table.getByRole("link", { name: metadataUrl })).toHaveCount(0);

  // 5. Delete asks first; Keep cancels, confirming deletes it from the list and the API.
  await pastedRow.getByRole("button", { name: `Delete ${pastedTitle}` }).click();
  await pastedRow.getByRole("button", { name: "Keep" }).click();
  await expect(pastedRow).toBeVisible();
  await pastedRow.getByRole("button", { name: `Delete ${pastedTitle}` }).click();
  await expect(pastedRow).toContainText("Delete this document?");
  await pastedRow.getByRole("button", { name: "Yes, delete" }).click();
  await expect(status).toHaveText(`Deleted “${pastedTitle}”.`);
  await expect(alert).toHaveCount(0);
  await expect(table.getByRole("row").filter({ hasText: pastedTitle })).toHaveCount(0);
  pastedDoc = (await documents(request)).find((d) => d.title === pastedTitle);
  expect(pastedDoc).toBeUndefined();
  expect((await request.get(`/api/library/${fetched[0].id}`)).status()).toBe(200);

  // The remaining documents are stored: a reload lists them.
  await page.reload();
  await expect(page.getByRole("table").getByRole("row").filter({ hasText: uploadedTitle })).toHaveCount(1);
  await expect(page.getByRole("table").getByRole("link", { name: url })).toBeVisible();
});

test("an unsupported upload is refused with the server's reason", async ({ page, request }) => {
  const before = (await documents(request)).length;
  await page.goto("/library");
  const adder = page.getByRole("region", { name: "Add a document" });
  await adder.getByRole("tab", { name: "Upload a file" }).click();
  await adder.getByLabel("File", { exact: true }).setInputFiles({
    name: "spreadsheet.xlsx",
    mimeType: "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet",
    buffer: Buffer.from("PK\u0003\u0004 not really a spreadsheet"),
  });
  await adder.getByRole("button", { name: "Upload" }).click();
  await expect(page.getByRole("main").getByRole("alert")).toContainText("Unsupported file type");
  await expect(page.getByRole("main").getByRole("alert")).toContainText(
    "upload PDF, HTML, Markdown or plain text",
  );
  expect(await documents(request)).toHaveLength(before);
});
