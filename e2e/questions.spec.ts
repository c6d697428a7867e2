/**
 * Asking about a finished report, in the browser with the scripted model: the answer appears under
 * the report with citations that carry their passage and verdict on hover, the thread is there on
 * reload, a follow-up goes with the earlier answer as context, a question the sources cannot answer
 * is `not_in_sources` (asked of no model) and offers "Research this deeper" (a child run seeded
 * with the parent's sources and findings), a share link made with the thread shows it (one without
 * does not), and the Markdown download carries the thread.
 */
import { type APIRequestContext, expect, type Page, test } from "@playwright/test";
import { roleMatch } from "../test/support/script-roles.ts";
import { REQUEST_LOG_PATH } from "../test/support/web-fixture.ts";
import { llmRequests, scriptLlm, waitForIdle, waitForStatus, webUrl } from "./support/helpers.ts";
import { deeperScript, researchScript, TOPIC_B, TOPIC_C } from "./support/research-script.ts";
import { signedOut, storageStatePath } from "./support/session.ts";

const STANDING =
  "A household that removes its gas connection entirely no longer pays the gas standing charge, typically 100 to 300 euros per year";
const SERVICE = "Maintenance costs are similar: both systems need an annual service";

interface ApiRun {
  sources: { id: string; url: string; readInFull: boolean }[];
  citations: { number: number; sourceId: string }[];
  directives: { topic: string; type: string }[];
  parentId: string | null;
  children: { id: string }[];
}

const fixturePaths = async (): Promise<string[]> =>
  (await (await fetch(`${webUrl()}${REQUEST_LOG_PATH}`)).json()).paths;

interface ApiQuestion {
  question: string;
  status: string;
  answer: string | null;
  citations: { n: number; sourceId: string; support: string; passage: string | null }[];
}

test("ask about a report: cited answers with passages, a lasting thread, and not_in_sources", async ({
  page,
  request,
  browser,
}) => {
  await waitForIdle(request);
  await scriptLlm(researchScript({ webUrl: webUrl() }));
  const created = await request.post("/api/runs", { data: { question: "Heat pump or gas boiler to run?" } });
  const id = (await created.json()).id as string;
  const run = (await waitForStatus(request, id, ["completed"])) as unknown as ApiRun;
  // The thread cites the running-costs page by its report number.
  const costs = run.sources.find((s) => s.url.includes("running-costs"));
  const n = run.citations.find((c) => c.sourceId === costs?.id)?.number;
  expect(n).toBeDefined();
  const answerRule = (name: string, user: string, text: string) => ({
    name,
    match: { ...roleMatch.question, user },
    replies: [{ kind: "text" as const, text }],
  });
  await scriptLlm([
    answerRule("question-1", "gas standing charge", `${STANDING} [${n}].`),
    answerRule("question-2", "maintenance", `${SERVICE} [${n}].`),
  ]);

  await page.goto(`/runs/${id}`);
  const box = page.getByTestId("question-thread");
  await expect(box.getByRole("heading", { name: "Ask about this report" })).toBeVisible();
  await box.getByLabel("Your question").fill("How much is the gas standing charge per year?");
  await box.getByRole("button", { name: "Ask" }).click();
  const first = box.locator('[data-testid="question"][data-status="answered"]').first();
  await expect(first.getByTestId("answer")).toContainText("100 to 300 euros per year");

  // Its [N] is the run's source, with the stored passage and the verdict on hover.
  const marker = first.locator("a[data-citation]");
  await expect(marker).toHaveCount(1);
  await expect(marker).toHaveAttribute("data-citation", String(n));
  await expect(marker).toHaveAttribute("data-verdict", "supported");
  await expect(marker).toHaveAccessibleName(`Source ${n}, supported by the source`);
  await marker.hover();
  const card = page.getByTestId("citation-card");
  await expect(card.getByTestId("citation-passage").first()).toContainText("gas standing charge");
  const [asked] = (await (await request.get(`/api/runs/${id}/questions`)).json()) as ApiQuestion[];
  expect(asked.citations).toEqual([
    expect.objectContaining({
      n,
      sourceId: costs?.id,
      support: "supported",
      passage: expect.stringContaining("standing charge"),
    }),
  ]);

  // The thread lasts: on reload it is there, and a follow-up goes with the earlier answer.
  await page.reload();
  await expect(box.locator('[data-testid="question"]')).toHaveCount(1);
  await expect(box.getByTestId("answer")).toContainText("100 to 300 euros");
  await box.getByLabel("Your question").fill("And the annual service and maintenance?");
  await box.getByRole("button", { name: "Ask" }).click();
  await expect(box.locator('[data-testid="question"][data-status="answered"]')).toHaveCount(2);
  const followUp = (await llmRequests()).find((r) => r.rule === "question-2");
  const prompt = JSON.stringify(followUp?.body);
  expect(prompt).toContain("earlier_questions");
  expect(prompt).toContain("How much is the gas standing charge per year?");
  expect(prompt).toContain("100 to 300 euros per year");

  // A question the sources cannot answer, asked before any script runs (the form is a server
  // action): not_in_sources, and no model is asked.
  const before = (await llmRequests()).length;
  const noScript = await browser.newContext({ javaScriptEnabled: false, storageState: storageStatePath });
  const plain = await noScript.newPage();
  await plain.goto(`/runs/${id}`);
  await plain.getByLabel("Your question").fill("How many moons does Jupiter have?");
  await plain.getByRole("button", { name: "Ask" }).click();
  await expect(plain.getByTestId("question")).toHaveCount(3);
  await noScript.close();
  await expect
    .poll(
      async () =>
        ((await (await request.get(`/api/runs/${id}/questions`)).json()) as ApiQuestion[])[2]?.status,
    )
    .toBe("not_in_sources");
  expect((await llmRequests()).length).toBe(before);
  await page.reload();
  await expect(box.locator('[data-status="not_in_sources"]')).toContainText("do not answer this question");

  // A share link may include the thread (the owner ticks it in the share form; off by default).
  const panel = page.getByRole("region", { name: "Share" });
  await panel.getByLabel("Include the questions about this report").check();
  await panel.getByRole("button", { name: "Create link" }).click();
  const withThread = await panel.getByLabel("New share link").inputValue();
  const plainLink = (await (await request.post(`/api/runs/${id}/shares`, { data: {} })).json()).url as string;
  const stranger = await browser.newContext({ storageState: signedOut });
  try {
    const reader = await stranger.newPage();
    await reader.goto(withThread);
    const shared = reader.getByTestId("shared-thread");
    await expect(shared.getByTestId("question")).toHaveCount(3);
    await expect(shared.getByTestId("answer").first()).toContainText("100 to 300 euros per year");
    await expect(shared.locator('[data-status="not_in_sources"]')).toContainText(
      "do not answer this question",
    );
    const sharedMarker = shared.locator("a[data-citation]").first();
    await expect(sharedMarker).toHaveAttribute("data-verdict", "supported");
    await sharedMarker.hover();
    await expect(reader.getByTestId("citation-card").getByTestId("citation-passage").first()).toContainText(
      "gas standing charge",
    );
    await reader.goto(plainLink);
    await expect(reader.getByRole("heading", { level: 1 })).toBeVisible();
    await expect(reader.getByTestId("shared-thread")).toHaveCount(0);
  } finally {
    await stranger.close();
  }

  await researchDeeper(page, request, id, run);

  // The download carries the thread; a run without a report answers 409 and a bad id 404.
  const md = await (await request.get(`/api/runs/${id}/report.md`)).text();
  expect(md).toContain("## Questions about this report");
  expect(md).toContain(`${SERVICE} [${n}].`);
  expect(
    (
      await request.post(`/api/runs/00000000-0000-4000-8000-000000000000/questions`, {
        data: { question: "Why?" },
      })
    ).status(),
  ).toBe(404);
});

/**
 * "Research this deeper" on the not_in_sources answer: a child run that starts from the parent's
 * findings (in its round-0 prompt), drops a planned repeat of a parent topic, fetches no parent
 * page again, cites old and new sources, and shows the lineage on both run pages.
 */
async function researchDeeper(page: Page, request: APIRequestContext, parentId: string, parent: ApiRun) {
  const parentPages = parent.sources.filter((s) => s.readInFull).map((s) => new URL(s.url).pathname);
  expect(parentPages.length).toBeGreaterThan(0);
  await scriptLlm(deeperScript({ webUrl: webUrl(), newSource: parentPages.length + 1 }));
  const fetchedBefore = (await fixturePaths()).length;

  const box = page.getByTestId("question-thread");
  await box
    .locator('[data-status="not_in_sources"]')
    .getByRole("button", { name: "Research this deeper" })
    .click();
  await page.waitForURL(
    (url) => /^\/runs\/[0-9a-f-]{36}$/.test(url.pathname) && !url.pathname.endsWith(parentId),
  );
  const childId = new URL(page.url()).pathname.split("/").pop() as string;
  const child = (await waitForStatus(request, childId, ["completed"])) as unknown as ApiRun;
  expect(child.parentId).toBe(parentId);

  // Round 0 planned around the parent's findings; the repeat of a parent topic was dropped.
  const plan = (await llmRequests()).find((r) => r.rule === "deeper-plan");
  const prompt = JSON.stringify(plan?.body);
  expect(prompt).toContain("<prior_research>");
  expect(prompt).toContain("Field trials measured a seasonal COP of about 2.5 to 3 in cold climates");
  const own = child.directives.filter((d) => d.type !== "inherited").map((d) => d.topic);
  expect(own).toEqual([TOPIC_C]);
  expect(child.directives.filter((d) => d.topic === TOPIC_B).map((d) => d.type)).toEqual(["inherited"]);

  // No parent page was fetched again; the new one was.
  const fetched = (await fixturePaths()).slice(fetchedBefore);
  expect(fetched).toContain("/pages/heating-emissions-comparison.html");
  for (const path of parentPages) expect(fetched).not.toContain(path);

  // The report cites a parent source and a new one.
  const urlOf = new Map(child.sources.map((s) => [s.id, new URL(s.url).pathname]));
  const cited = new Set(child.citations.map((c) => urlOf.get(c.sourceId)));
  expect(parentPages.some((p) => cited.has(p))).toBe(true);
  expect(cited.has("/pages/heating-emissions-comparison.html")).toBe(true);

  // Both pages show the lineage.
  await expect(page.getByTestId("lineage-parent").getByRole("link")).toHaveAttribute(
    "href",
    `/runs/${parentId}`,
  );
  await page.goto(`/runs/${parentId}`);
  await expect(page.getByTestId("lineage-children").getByRole("link")).toHaveAttribute(
    "href",
    `/runs/${childId}`,
  );
}
