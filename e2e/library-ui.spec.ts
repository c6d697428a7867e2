/**
 * The document library page in Chromium: pasting text, uploading a Markdown file, fetching a URL
 * from the local web fixture, seeing the server's refusal of a private URL, and deleting a
 * document; a file dropped on the drop zone, a document opened on its page, the page at phone
 * width, and an upload without JavaScript. Every change is also checked through GET /api/library.
 */
import { type APIRequestContext, expect, test } from "@playwright/test";
import { expectNoSidewaysScroll } from "./support/axe.ts";
import { webUrl } from "./support/helpers.ts";
import { storageStatePath } from "./support/session.ts";

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
  // The e2e app searches the web fixture through SearXNG: the page says the library is not searched.
  const notice = page.getByTestId("search-providers");
  await expect(notice).toContainText("Research runs on this server do not search this library.");
  await expect(notice).toContainText("the web through SearXNG");
  await expect(notice).toContainText("searchProviders");

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

test("drop a file, open it, read the page on a phone, and upload without JavaScript", async ({
  page,
  request,
  browser,
}) => {
  const stamp = Date.now().toString(36);
  const droppedTitle = `Dropped defrost notes ${stamp}`;
  const droppedText = "Defrost cycles reverse the heat pump for a few minutes when the coil ices.";
  await page.goto("/library");

  // A file dropped on the zone is uploaded at once.
  const zone = page.getByTestId("drop-zone");
  await expect(zone.getByLabel("File", { exact: true })).toBeVisible();
  const dataTransfer = await page.evaluateHandle(
    ({ name, body }) => {
      const dt = new DataTransfer();
      dt.items.add(new File([body], name, { type: "text/markdown" }));
      return dt;
    },
    { name: `defrost-${stamp}.md`, body: `# ${droppedTitle}\n\n${droppedText}\n` },
  );
  await zone.dispatchEvent("drop", { dataTransfer });
  await expect(page.getByRole("main").getByRole("status")).toContainText(`Added “${droppedTitle}”`);
  const doc = (await documents(request)).find((d) => d.title === droppedTitle);
  expect(doc).toMatchObject({ mimeType: "text/markdown" });

  // The title opens the document's page with its stored text.
  await page.getByRole("table").getByRole("link", { name: droppedTitle }).click();
  await expect(page).toHaveURL(new RegExp(`/library/${doc!.id}$`));
  await expect(page.getByRole("heading", { level: 1 })).toHaveText(droppedTitle);
  await expect(page.getByTestId("document-text")).toContainText(droppedText);
  // Someone else's (here: nobody's) document is a 404.
  const missing = await page.goto("/library/00000000-0000-4000-8000-000000000000");
  expect(missing?.status()).toBe(404);

  // At phone width nothing scrolls sideways; the documents are cards that still open.
  await page.setViewportSize({ width: 390, height: 844 });
  await page.goto("/library");
  await expect(page.getByRole("table")).toBeHidden();
  const card = page
    .getByRole("list", { name: "Documents" })
    .getByRole("listitem")
    .filter({ hasText: droppedTitle });
  await expect(card.getByRole("link", { name: droppedTitle })).toBeVisible();
  await expectNoSidewaysScroll(page);
  await page.goto(`/library/${doc!.id}`);
  await expectNoSidewaysScroll(page);

  // Without JavaScript the picker and Upload button post the form to the server action.
  const noJs = await browser.newContext({ javaScriptEnabled: false, storageState: storageStatePath });
  const plain = await noJs.newPage();
  await plain.goto("/library");
  const plainTitle = `Plain upload ${stamp}`;
  await plain
    .getByTestId("drop-zone")
    .getByLabel("File", { exact: true })
    .setInputFiles({
      name: `plain-${stamp}.txt`,
      mimeType: "text/plain",
      buffer: Buffer.from(`${plainTitle}\n\nUploaded by a browser without scripts.`),
    });
  await plain.getByTestId("drop-zone").getByRole("button", { name: "Upload" }).click();
  await expect(plain.getByRole("main").getByRole("status")).toContainText("Added “");
  expect(
    (await documents(request)).some((d) => d.title.startsWith(`plain-${stamp}`) || d.title === plainTitle),
  ).toBe(true);
  await noJs.close();
});
