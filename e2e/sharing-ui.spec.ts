/**
 * An admin shares their own library document and knowledge item with everyone from the pages;
 * another account then sees them marked "shared with everyone", read-only (no delete, no review),
 * and no longer sees the document once it is unshared.
 */
import { expect, test } from "@playwright/test";
import { sharedApp, signUp } from "./support/session.ts";

test("an admin shares a document and a knowledge item; another person sees them read-only", async ({
  page,
  request,
  browser,
}) => {
  const stamp = Date.now().toString(36);
  const title = `Shared heat pump sizing notes ${stamp}`;
  const lesson = `Size a heat pump from the measured heat loss, not the old boiler (${stamp}).`;
  const doc = await request.post("/api/library", { data: { text: "Heat loss first, then size.", title } });
  expect(doc.status()).toBe(201);
  const docId = (await doc.json()).document.id as string;
  const item = await request.post("/api/knowledge", { data: { category: "lesson", content: lesson } });
  expect(item.status()).toBe(201);
  expect((await item.json()).item).toMatchObject({ own: true, shared: false });

  // The admin shares both from the pages.
  await page.goto("/library");
  const docRow = page.getByRole("table").getByRole("row").filter({ hasText: title });
  await docRow.getByRole("button", { name: `Share with everyone: ${title}` }).click();
  await expect(page.getByRole("main").getByRole("status")).toHaveText(`Shared “${title}” with everyone.`);
  await expect(docRow.getByTestId("shared-badge")).toHaveText("shared with everyone");
  await expect(docRow.getByRole("button", { name: `Stop sharing: ${title}` })).toBeVisible();
  expect((await (await request.get(`/api/library/${docId}`)).json()).document).toMatchObject({
    shared: true,
    own: true,
  });

  await page.goto("/knowledge");
  const itemRow = page.getByRole("listitem", { name: lesson });
  await itemRow.getByRole("button", { name: "Share with everyone" }).click();
  await expect(itemRow.getByTestId("shared-badge")).toHaveText("shared with everyone");
  await expect(itemRow.getByRole("button", { name: "Stop sharing" })).toBeVisible();

  // A second person, invited by the admin, sees both read-only.
  const { invitation } = await (await request.post("/api/invitations", { data: {} })).json();
  const reader = await signUp(sharedApp().url, {
    email: `reader-${stamp}@example.org`,
    name: "Reader",
    invite: new URL(invitation.url).searchParams.get("invite")!,
  });
  const context = await browser.newContext({ storageState: { cookies: reader.cookies, origins: [] } });
  try {
    const other = await context.newPage();
    await other.goto("/library");
    const seen = other.getByRole("table").getByRole("row").filter({ hasText: title });
    await expect(seen.getByTestId("shared-badge")).toBeVisible();
    await expect(seen).toContainText("shared by an admin");
    await expect(seen.getByRole("button")).toHaveCount(0);

    await other.goto("/knowledge");
    const seenItem = other.getByRole("listitem", { name: lesson });
    await expect(seenItem.getByTestId("shared-badge")).toBeVisible();
    await expect(seenItem).toContainText("shared by an admin");
    await expect(seenItem.getByRole("button")).toHaveCount(0);
    const listed = (await (await other.request.get("/api/knowledge")).json()).items;
    expect(listed.find((i: { content: string }) => i.content === lesson)).toMatchObject({
      own: false,
      shared: true,
    });
    expect(JSON.stringify(listed)).not.toContain("ownerId");

    // Unshared, the document is the admin's alone again.
    await page.goto("/library");
    await docRow.getByRole("button", { name: `Stop sharing: ${title}` }).click();
    await expect(page.getByRole("main").getByRole("status")).toHaveText(`“${title}” is no longer shared.`);
    await expect(docRow.getByTestId("shared-badge")).toHaveCount(0);
    await other.goto("/library");
    await expect(other.getByRole("row").filter({ hasText: title })).toHaveCount(0);
  } finally {
    await context.close();
  }
});
