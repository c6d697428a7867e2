/**
 * The knowledge base review page in Chromium: adding an item through the form, editing it inline,
 * rejecting and approving it; the review queue of items real (scripted) runs extracted — first on
 * the page, near-duplicates merged with their runs and sources linked, approve with undo, cards
 * that stay in place, keyboard review, and a review without JavaScript. Every change is also
 * checked through GET /api/knowledge.
 */
import { type APIRequestContext, expect, type Locator, type Page, test } from "@playwright/test";
import type { ScriptRule } from "../test/support/llm-server.ts";
import { expectNoSidewaysScroll } from "./support/axe.ts";
import { scriptLlm, waitForIdle, waitForStatus, webUrl } from "./support/helpers.ts";
import { researchScript } from "./support/research-script.ts";
import { storageStatePath } from "./support/session.ts";

interface Item {
  id: string;
  runId: string | null;
  category: string;
  content: string;
  status: string;
  sourceIds: string[];
  confidence: number;
  origin: string;
}

async function itemsByContent(request: APIRequestContext, content: string) {
  const r = await request.get("/api/knowledge");
  expect(r.status()).toBe(200);
  return ((await r.json()).items as Item[]).filter((i) => i.content === content);
}

const section = (page: Page, name: string) => page.getByRole("region", { name: new RegExp(`^${name}`) });

test("add an item through the form, edit it, reject and approve it", async ({ page, request }) => {
  const stamp = Date.now().toString(36);
  const content = `Heat pump COP ratings assume 7 °C outdoor air (ui ${stamp}).`;
  const edited = `Rated COP figures come from mild test conditions, not winter (ui ${stamp}).`;

  await page.goto("/");
  await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Knowledge" }).click();
  await expect(page).toHaveURL(/\/knowledge$/);
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Knowledge base");

  const form = page.getByRole("form", { name: "Add knowledge item" });
  const add = form.getByRole("button", { name: "Add item" });
  await expect(add).toBeDisabled();
  await form.getByLabel("Category").selectOption("lesson");
  await form.getByLabel("Content").fill(content);
  await expect(form.getByText(`${content.length}/500 characters`)).toBeVisible();
  await add.click();
  await expect(form.getByLabel("Content")).toHaveValue("");
  await expect(form.getByText("0/500 characters")).toBeVisible();

  // A person's own item is established at once and shows its metadata.
  const established = section(page, "Established");
  const row = established.getByRole("listitem", { name: content });
  await expect(row).toBeVisible();
  await expect(row.getByTestId("knowledge-status")).toHaveText("Established");
  await expect(row).toContainText("lesson");
  await expect(row).toContainText("confidence 100%");
  await expect(row).toContainText("0 sources");
  await expect(row).toContainText("added by you");
  await expect(row.getByRole("button", { name: "Approve" })).toHaveCount(0);
  let [item] = await itemsByContent(request, content);
  expect(item).toMatchObject({ category: "lesson", status: "established", origin: "user", runId: null });

  // Edit: Cancel leaves it unchanged, Save stores the new content and category.
  await row.getByRole("button", { name: "Edit" }).click();
  await row.getByLabel("Content").fill("Something else entirely");
  await row.getByRole("button", { name: "Cancel" }).click();
  await expect(row.getByLabel("Content")).toHaveCount(0);
  await expect(row).toContainText(content);

  await row.getByRole("button", { name: "Edit" }).click();
  await expect(row.getByLabel("Content")).toHaveValue(content);
  await row.getByLabel("Category").selectOption("finding");
  await row.getByLabel("Content").fill(edited);
  await row.getByRole("button", { name: "Save" }).click();
  const editedRow = established.getByRole("listitem", { name: edited });
  await expect(editedRow).toBeVisible();
  await expect(editedRow.getByLabel("Content")).toHaveCount(0);
  await expect(editedRow).toContainText("finding");
  await expect(page.getByRole("listitem", { name: content })).toHaveCount(0);
  [item] = await itemsByContent(request, edited);
  expect(item).toMatchObject({ category: "finding", status: "established" });
  expect(await itemsByContent(request, content)).toEqual([]);

  // Reject moves it to Deprecated; Approve brings it back.
  await editedRow.getByRole("button", { name: "Reject" }).click();
  const deprecatedRow = section(page, "Deprecated").getByRole("listitem", { name: edited });
  await expect(deprecatedRow.getByTestId("knowledge-status")).toHaveText("Deprecated");
  await expect(established.getByRole("listitem", { name: edited })).toHaveCount(0);
  expect((await itemsByContent(request, edited))[0].status).toBe("deprecated");

  await deprecatedRow.getByRole("button", { name: "Approve" }).click();
  await expect(
    established.getByRole("listitem", { name: edited }).getByTestId("knowledge-status"),
  ).toHaveText("Established");
  await expect(section(page, "Deprecated").getByRole("listitem", { name: edited })).toHaveCount(0);
  expect((await itemsByContent(request, edited))[0].status).toBe("established");

  // The status filter shows one group at a time; the list survives a reload (it is stored).
  const filters = page.getByRole("group", { name: "Filter by status" });
  await filters.getByRole("button", { name: /^Deprecated/ }).click();
  await expect(filters.getByRole("button", { name: /^Deprecated/ })).toHaveAttribute("aria-pressed", "true");
  await expect(section(page, "Established")).toHaveCount(0);
  await expect(page.getByRole("listitem", { name: edited })).toHaveCount(0);
  await filters.getByRole("button", { name: /^Established/ }).click();
  await expect(page.getByRole("listitem", { name: edited })).toBeVisible();
  await page.reload();
  await expect(section(page, "Established").getByRole("listitem", { name: edited })).toBeVisible();
});

/** A scripted run whose knowledge phase extracts `contents` (each resting on source [1]). */
async function runExtracting(request: APIRequestContext, question: string, contents: string[]) {
  await waitForIdle(request);
  await scriptLlm(
    researchScript({ webUrl: webUrl() }).map(
      (rule): ScriptRule =>
        rule.name === "knowledge"
          ? {
              ...rule,
              replies: [
                {
                  kind: "json",
                  value: {
                    items: contents.map((content) => ({
                      category: "finding",
                      content,
                      sources: [1],
                      confidence: 0.7,
                      needs_review: true,
                    })),
                  },
                },
              ],
            }
          : rule,
    ),
  );
  const created = await request.post("/api/runs", { data: { question } });
  expect(created.status()).toBe(201);
  const { id } = await created.json();
  await waitForStatus(request, id, ["completed"]);
  return id as string;
}

const box = async (l: Locator) => {
  const b = await l.boundingBox();
  expect(b).not.toBeNull();
  return b!;
};

test("the review queue: first, merged duplicates, approve with undo in place, keyboard, without JavaScript", async ({
  page,
  request,
  browser,
}) => {
  test.setTimeout(150_000);
  const stamp = Date.now().toString(36);
  const a1 = `Field trials put cold-climate seasonal COP near 2.7 (review ${stamp}).`;
  const a2 = `In field trials the cold-climate seasonal COP was near 2.7 (review ${stamp})`;
  const b = `Ground-source systems hold their efficiency all winter (queue ${stamp}).`;
  const c = `Defrost cycles cost some output in humid frost (queue ${stamp}).`;
  const q1 = `Do heat pumps work in cold winters? (knowledge ui ${stamp})`;
  const q2 = `Heat pumps in Nordic winters? (knowledge ui ${stamp})`;
  const run1 = await runExtracting(request, q1, [a1, b, c]);
  const run2 = await runExtracting(request, q2, [a2]);
  const [i1] = await itemsByContent(request, a1);
  const [i2] = await itemsByContent(request, a2);
  expect(i1).toMatchObject({ status: "provisional", runId: run1, origin: "extracted" });
  expect(i2).toMatchObject({ status: "provisional", runId: run2 });

  await page.goto("/knowledge");
  const queue = section(page, "Needs review");
  // The queue comes before the add form, and names its keys.
  const form = page.getByRole("form", { name: "Add knowledge item" });
  expect((await box(queue)).y).toBeLessThan((await box(form)).y);
  await expect(queue).toContainText("a approve · r reject · e edit");

  // The two rewordings are one card (the newer text), with both runs and both sources linked.
  await expect(page.getByRole("listitem", { name: a1 })).toHaveCount(0);
  const merged = queue.getByRole("listitem", { name: a2 });
  await expect(merged).toHaveCount(1);
  await expect(merged.getByRole("link", { name: `from run: ${q2}` })).toHaveAttribute(
    "href",
    `/runs/${run2}`,
  );
  await expect(merged.getByTestId("also-found")).toContainText("also found in 1 run");
  await expect(merged.getByRole("link", { name: q1 })).toHaveAttribute("href", `/runs/${run1}`);
  await expect(merged.getByRole("link", { name: "2 sources" })).toHaveAttribute(
    "href",
    /\/runs\/.+#sources$/,
  );
  const single = queue.getByRole("listitem", { name: b });
  await expect(single.getByRole("link", { name: "1 source" })).toHaveAttribute(
    "href",
    `/runs/${run1}#sources`,
  );
  // Each source links to the page it was read from.
  await expect(single.locator('a[href^="http"]')).not.toHaveCount(0);

  // Approve and reject are distinct and name their item.
  const approve = merged.getByRole("button", { name: `Approve: ${a2.slice(0, 59)}` });
  const reject = merged.getByRole("button", { name: /^Reject: / });
  await expect(approve).toBeVisible();
  expect(await approve.evaluate((el) => getComputedStyle(el).backgroundColor)).not.toBe(
    await reject.evaluate((el) => getComputedStyle(el).backgroundColor),
  );

  // Approving keeps the card in place (the card below does not move) and offers undo.
  const cards = queue.getByRole("listitem");
  const names = await cards.evaluateAll((els) => els.map((el) => el.getAttribute("aria-label")));
  const next = cards.nth(names.indexOf(a2) + 1);
  const before = await box(next);
  await approve.click();
  const message = page.getByRole("main").getByRole("status");
  await expect(message).toContainText(`Approved “${a2}”`);
  await expect(merged.getByTestId("review-outcome")).toHaveText(/Approved/);
  expect(await box(next)).toEqual(before);
  for (const id of [i1.id, i2.id]) {
    const r = await request.get("/api/knowledge");
    expect(((await r.json()).items as Item[]).find((i) => i.id === id)?.status).toBe("established");
  }
  // Undo restores the previous status of every merged item.
  await message.getByRole("button", { name: "Undo" }).click();
  await expect(message).toContainText("Undone:");
  await expect(merged.getByTestId("knowledge-status")).toHaveText("Needs review");
  await expect(merged.getByRole("button", { name: /^Approve: / })).toBeVisible();
  expect((await itemsByContent(request, a1))[0].status).toBe("provisional");
  expect((await itemsByContent(request, a2))[0].status).toBe("provisional");

  // Keyboard: focus a card, j/k move, a approves, r rejects, e edits.
  const order = await cards.evaluateAll((els) => els.map((el) => el.getAttribute("aria-label")));
  const bIndex = order.indexOf(b);
  await single.locator("p").first().click();
  await expect(single).toBeFocused();
  await page.keyboard.press("a");
  await expect(single.getByTestId("review-outcome")).toHaveText(/Approved/);
  await expect.poll(async () => (await itemsByContent(request, b))[0].status).toBe("established");
  const last = order.length - 1;
  await page.keyboard.press("j");
  await expect(cards.nth(Math.min(bIndex + 1, last))).toBeFocused();
  if (bIndex < last) {
    await page.keyboard.press("k");
    await expect(single).toBeFocused();
  }
  await page.keyboard.press("k");
  await expect(cards.nth(Math.max(0, bIndex - 1))).toBeFocused();
  const cCard = queue.getByRole("listitem", { name: c });
  await cCard.locator("p").first().click();
  await page.keyboard.press("r");
  await expect(cCard.getByTestId("review-outcome")).toHaveText(/Rejected/);
  await expect.poll(async () => (await itemsByContent(request, c))[0].status).toBe("deprecated");
  await page.keyboard.press("e");
  await expect(cCard.getByLabel("Content")).toHaveValue(c);
  // Typing in the field is text, not a review key.
  await cCard.getByLabel("Content").press("End");
  await cCard.getByLabel("Content").pressSequentially(" ar");
  await expect(cCard.getByLabel("Content")).toHaveValue(`${c} ar`);
  await cCard.getByRole("button", { name: "Cancel" }).click();

  // At phone width the page does not scroll sideways.
  await page.setViewportSize({ width: 390, height: 844 });
  await page.reload();
  await expect(queue.getByRole("listitem", { name: a2 })).toBeVisible();
  await expectNoSidewaysScroll(page);

  // Without JavaScript the forms still review: approve, then the message's undo.
  const noJs = await browser.newContext({ javaScriptEnabled: false, storageState: storageStatePath });
  const plain = await noJs.newPage();
  await plain.goto("/knowledge");
  await section(plain, "Needs review")
    .getByRole("listitem", { name: a2 })
    .getByRole("button", { name: /^Approve: / })
    .click();
  await expect(plain.getByRole("main").getByRole("status")).toContainText(`Approved “${a2}”`);
  expect((await itemsByContent(request, a2))[0].status).toBe("established");
  expect((await itemsByContent(request, a1))[0].status).toBe("established");
  await plain.getByRole("main").getByRole("status").getByRole("button", { name: "Undo" }).click();
  await expect(plain.getByRole("main").getByRole("status")).toContainText("Undone:");
  expect((await itemsByContent(request, a2))[0].status).toBe("provisional");
  await noJs.close();
});
