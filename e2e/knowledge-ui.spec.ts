/**
 * The knowledge base review page in Chromium: adding an item through the form, editing it inline,
 * rejecting and approving it, and reviewing a provisional item a real (scripted) research run
 * extracted. Every change is also checked through GET /api/knowledge.
 */
import { type APIRequestContext, expect, type Page, test } from "@playwright/test";
import type { ScriptRule } from "../test/support/llm-server.ts";
import { scriptLlm, waitForIdle, waitForStatus, webUrl } from "./support/helpers.ts";
import { researchScript } from "./support/research-script.ts";

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
  await expect(row.getByTestId("knowledge-status")).toHaveText("established");
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
  await expect(deprecatedRow.getByTestId("knowledge-status")).toHaveText("deprecated");
  await expect(established.getByRole("listitem", { name: edited })).toHaveCount(0);
  expect((await itemsByContent(request, edited))[0].status).toBe("deprecated");

  await deprecatedRow.getByRole("button", { name: "Approve" }).click();
  await expect(
    established.getByRole("listitem", { name: edited }).getByTestId("knowledge-status"),
  ).toHaveText("established");
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

test("a provisional item extracted by a run needs review, links to its run, and can be approved", async ({
  page,
  request,
}) => {
  const stamp = Date.now().toString(36);
  const extracted = `Field trials put cold-climate seasonal COP near 2.7 (review ${stamp}).`;
  const question = `Do heat pumps work in cold winters? (knowledge ui ${stamp})`;
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
                    items: [
                      {
                        category: "finding",
                        content: extracted,
                        sources: [1],
                        confidence: 0.7,
                        needs_review: true,
                      },
                    ],
                  },
                },
              ],
            }
          : rule,
    ),
  );
  const created = await request.post("/api/runs", { data: { question } });
  expect(created.status()).toBe(201);
  const { id: runId } = await created.json();
  await waitForStatus(request, runId, ["completed"]);
  const [item] = await itemsByContent(request, extracted);
  expect(item).toMatchObject({ status: "provisional", runId, category: "finding", origin: "extracted" });
  expect(item.sourceIds).toHaveLength(1);

  await page.goto("/knowledge");
  const needsReview = section(page, "Needs review");
  // Needs review comes first on the page.
  await expect(
    page
      .getByRole("heading", { level: 2 })
      .filter({ hasText: /^(Needs review|Established|Deprecated)/ })
      .first(),
  ).toHaveText(/^Needs review/);
  const row = needsReview.getByRole("listitem", { name: extracted });
  await expect(row.getByTestId("knowledge-status")).toHaveText("provisional");
  await expect(row).toContainText("confidence 70%");
  await expect(row).toContainText("1 source");
  const runLink = row.getByRole("link", { name: `from run: ${question}` });
  await expect(runLink).toHaveAttribute("href", `/runs/${runId}`);

  await row.getByRole("button", { name: "Approve" }).click();
  await expect(needsReview.getByRole("listitem", { name: extracted })).toHaveCount(0);
  const approved = section(page, "Established").getByRole("listitem", { name: extracted });
  await expect(approved.getByTestId("knowledge-status")).toHaveText("established");
  await expect(approved.getByRole("link", { name: `from run: ${question}` })).toBeVisible();
  expect((await itemsByContent(request, extracted))[0].status).toBe("established");

  await approved.getByRole("link", { name: `from run: ${question}` }).click();
  await expect(page).toHaveURL(new RegExp(`/runs/${runId}$`));
  await expect(page.getByRole("heading", { level: 1 })).toHaveText(question);
});
