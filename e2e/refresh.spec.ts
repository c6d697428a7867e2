/**
 * Refresh in Chromium, with the scripted model and the local web fixture, as the acceptance
 * asks: a question is researched (version 1); then the web changes under it — one figure in the
 * sentence the report rests on changes on the cited cold-climate page, and the cited running-costs
 * page is taken down — and the run page's "Refresh" button starts version 2. The diff (API and the
 * What changed page) lists the changed claim before and after, the claim left out with its gone
 * page, the removed source and the changed source; the newer report there marks the changed claim;
 * the version switcher lists both versions and moves between them; the owner gets a notice in the
 * bell. Refreshing version 2 on the unchanged web gives version 3: an empty diff and no notice.
 *
 * Notices for scheduled refreshes: a schedule fires at most daily (cron from the PUT time) and the
 * e2e app's pg-boss database is not reachable from here, so the firing job → version → notice path
 * is tested in-process through the real queue (test/schedules.test.ts); the notice itself is the
 * same for a version started by the button, as checked here.
 */
import { type APIRequestContext, expect, type Page, test } from "@playwright/test";
import { scriptLlm, waitForIdle, waitForStatus, webUrl } from "./support/helpers.ts";
import { COP_AFTER, COP_BEFORE, refreshedScript, researchScript } from "./support/research-script.ts";
import { editFixturePage, removeFixturePage, restoreFixturePages } from "./support/web-edits.ts";

const COLD = "cold-climate-heat-pump-performance";
const COSTS = "running-costs-heat-pump-vs-gas-boiler";
const pageUrl = (slug: string) => `${webUrl()}/pages/${slug}.html`;

interface Claim {
  text: string;
  sources: string[];
}
interface Diff {
  differ: boolean;
  claims: { added: Claim[]; removed: Claim[]; changed: { before: Claim; after: Claim }[] };
  sources: { added: { url: string }[]; removed: { url: string }[]; changed: { url: string }[] };
}
interface Notice {
  kind: string;
  runId: string;
  data: Record<string, unknown>;
}

test.beforeEach(restoreFixturePages);
test.afterEach(restoreFixturePages);

const diffOf = async (request: APIRequestContext, id: string, against: string): Promise<Diff> =>
  (await request.get(`/api/runs/${id}/diff?against=${against}`)).json();

const notices = async (request: APIRequestContext): Promise<{ unread: number; notifications: Notice[] }> =>
  (await request.get("/api/notifications")).json();

/** Clicks the run page's Refresh button and waits for the new version to finish; returns its id. */
async function refreshFromPage(page: Page, request: APIRequestContext, from: string): Promise<string> {
  await page.goto(`/runs/${from}`);
  await page.getByTestId("refresh-form").getByRole("button", { name: "Refresh" }).click();
  await page.waitForURL((url) => url.pathname.startsWith("/runs/") && !url.pathname.endsWith(from));
  const id = new URL(page.url()).pathname.split("/")[2];
  await waitForStatus(request, id, ["completed"], 90_000);
  return id;
}

/** The header's notices menu as shown on a wide screen (the phone menu holds a second copy). */
const bell = (page: Page) => page.getByTestId("notifications-menu").filter({ visible: true });

test("a refresh after the web changed: the diff, the version switcher, the marked claim and a notice; an unchanged refresh: none", async ({
  page,
  request,
}) => {
  test.setTimeout(300_000);
  await waitForIdle(request);
  const noticesBefore = (await notices(request)).notifications.length;

  // Version 1. Directive B starts late so the cold-climate page is source [1] (the script cites it).
  await scriptLlm(researchScript({ webUrl: webUrl(), startBAfterMs: 1500 }));
  const created = await request.post("/api/runs", { data: { question: "Heat pumps in a cold climate?" } });
  expect(created.status()).toBe(201);
  const { id: v1 } = await created.json();
  await waitForStatus(request, v1, ["completed"]);
  const before = await diffOf(request, v1, v1);
  expect(before.differ).toBe(false);

  // The web changes: the figure on the page the COP claim cites, and the running-costs page goes.
  await editFixturePage(COLD, "factors between 2 and 3", "factors between 2.2 and 3");
  await removeFixturePage(COSTS);
  expect((await fetch(pageUrl(COSTS))).status).toBe(410);

  // Version 2, from the button: the cited pages are fetched again and compared.
  await scriptLlm(refreshedScript({ webUrl: webUrl() }));
  const v2 = await refreshFromPage(page, request, v1);
  const view = await (await request.get(`/api/runs/${v2}`)).json();
  expect(view.versionOf).toBe(v1);
  const recheck = (slug: string) =>
    view.sources.find((s: { url: string }) => s.url === pageUrl(slug))?.recheck as string | undefined;
  expect(recheck(COLD)).toBe("changed");
  expect(recheck(COSTS)).toBe("gone");
  const versions = await (await request.get(`/api/runs/${v2}/versions`)).json();
  expect(versions.map((v: { id: string }) => v.id)).toEqual([v1, v2]);

  // The diff: the changed claim before and after, the left-out claim, the removed and the changed source.
  const diff = await diffOf(request, v2, v1);
  expect(diff.differ).toBe(true);
  expect(diff.claims.changed).toHaveLength(1);
  const [changed] = diff.claims.changed;
  expect(changed.before.text).toContain(COP_BEFORE);
  expect(changed.after.text).toContain(COP_AFTER);
  expect(changed.before.sources).toEqual([pageUrl(COLD)]);
  expect(changed.after.sources).toEqual([pageUrl(COLD)]);
  expect(diff.claims.removed).toEqual([
    { text: expect.stringContaining("costs less to run than a gas boiler"), sources: [pageUrl(COSTS)] },
  ]);
  expect(diff.claims.added).toEqual([]);
  expect(diff.sources.removed.map((s) => s.url)).toEqual([pageUrl(COSTS)]);
  expect(diff.sources.changed.map((s) => s.url)).toEqual([pageUrl(COLD)]);
  expect(diff.sources.added).toEqual([]);

  // The version switcher on version 2: both versions, the current one marked.
  await page.goto(`/runs/${v2}`);
  const switcher = page.getByRole("navigation", { name: "Versions of this report" });
  await expect(switcher.getByRole("link", { name: /^Version \d+$/ })).toHaveText(["Version 1", "Version 2"]);
  await expect(switcher.getByRole("link", { name: "Version 1", exact: true })).toHaveAttribute(
    "href",
    `/runs/${v1}`,
  );
  await expect(switcher.getByRole("link", { name: "Version 2", exact: true })).toHaveAttribute(
    "aria-current",
    "page",
  );

  // The bell: one new notice, for version 2, with the diff's counts.
  const afterV2 = await notices(request);
  expect(afterV2.notifications).toHaveLength(noticesBefore + 1);
  expect(afterV2.notifications[0]).toMatchObject({
    kind: "version_ready",
    runId: v2,
    data: { reportId: v1, previousRunId: v1, diff: { claims: { changed: 1, removed: 1, added: 0 } } },
  });
  const menu = bell(page);
  await expect(menu.getByTestId("unread-count")).toHaveText(String(afterV2.unread));
  await menu.locator("summary").click();
  const notice = menu.getByRole("link", {
    name: "A new version differs: 2 claims changed, 1 cited source changed.",
  });
  await expect(notice).toHaveAttribute("href", `/runs/${v2}`);
  await menu.locator("summary").click();

  // Switching: to version 1, whose switcher marks it and links to what changed in version 2.
  await switcher.getByRole("link", { name: "Version 1", exact: true }).click();
  await page.waitForURL((url) => url.pathname === `/runs/${v1}`);
  await expect(switcher.getByRole("link", { name: "Version 1", exact: true })).toHaveAttribute(
    "aria-current",
    "page",
  );
  await switcher.getByRole("link", { name: "What changed in version 2", exact: true }).click();
  await page.waitForURL((url) => url.pathname === `/runs/${v2}/changes`);
  expect(new URL(page.url()).searchParams.get("against")).toBe(v1);

  // The What changed page: side by side, the sources, and the changed claim marked in version 2.
  await expect(page.getByRole("heading", { name: "What changed", level: 1 })).toBeVisible();
  await expect(page.getByRole("heading", { name: "1 changed claim", exact: true })).toBeVisible();
  const pair = page
    .getByRole("listitem")
    .filter({ has: page.getByRole("heading", { name: "Before", exact: true }) });
  await expect(pair.getByRole("heading", { name: "After", exact: true })).toBeVisible();
  await expect(pair).toContainText(COP_BEFORE);
  await expect(pair).toContainText(COP_AFTER);
  await expect(page.getByRole("heading", { name: "1 claim left out", exact: true })).toBeVisible();
  await expect(page.getByRole("heading", { name: "No new claims", exact: true })).toBeVisible();
  const sourceList = (heading: string) =>
    page.getByRole("heading", { name: heading, exact: true }).locator("xpath=following-sibling::ul[1]");
  await expect(sourceList("1 cited source's text changed")).toContainText(pageUrl(COLD));
  await expect(sourceList("1 source no longer cited")).toContainText(pageUrl(COSTS));
  await expect(page.getByRole("heading", { name: "No source newly cited", exact: true })).toBeVisible();
  const marked = page.locator('[data-change="changed"]');
  await expect(marked).toHaveCount(1);
  await expect(marked).toContainText(COP_AFTER);
  await expect(marked).toHaveAttribute("title", "Changed claim");
  await page.getByRole("link", { name: "Back to version 2", exact: true }).click();
  await page.waitForURL((url) => url.pathname === `/runs/${v2}`);

  // Version 3 on the web as version 2 saw it: nothing changed, so an empty diff and no notice.
  await scriptLlm(refreshedScript({ webUrl: webUrl() }));
  const v3 = await refreshFromPage(page, request, v2);
  const third = await (await request.get(`/api/runs/${v3}`)).json();
  expect(third.versionOf).toBe(v1);
  const rechecked = third.sources.filter((s: { recheck: string | null }) => s.recheck !== null);
  expect(rechecked.map((s: { url: string; recheck: string }) => [s.url, s.recheck])).toEqual([
    [pageUrl(COLD), "unchanged"],
  ]);
  const same = await diffOf(request, v3, v2);
  expect(same).toMatchObject({
    differ: false,
    claims: { added: [], removed: [], changed: [] },
    sources: { added: [], removed: [], changed: [] },
  });
  const afterV3 = await notices(request);
  expect(afterV3.notifications).toHaveLength(afterV2.notifications.length);
  expect(afterV3.notifications.some((n) => n.runId === v3)).toBe(false);

  await page.goto(`/runs/${v3}`);
  await expect(switcher.getByRole("link", { name: /^Version \d+$/ })).toHaveText([
    "Version 1",
    "Version 2",
    "Version 3",
  ]);
  await expect(bell(page).getByTestId("unread-count")).toHaveText(String(afterV3.unread));
  await bell(page).locator("summary").click();
  await expect(bell(page).getByRole("link", { name: /^A new version differs/ })).toHaveCount(
    afterV3.notifications.filter((n) => n.kind === "version_ready").length,
  );
  await expect(bell(page).locator(`a[href="/runs/${v3}"]`)).toHaveCount(0);
  await bell(page).locator("summary").click();
  await switcher.getByRole("link", { name: "What changed since version 2", exact: true }).click();
  await page.waitForURL((url) => url.pathname === `/runs/${v3}/changes`);
  await expect(
    page.getByRole("status").filter({
      hasText: "Nothing that matters changed: the same claims, and the cited sources' text is the same.",
    }),
  ).toBeVisible();
  await expect(page.locator("[data-change]")).toHaveCount(0);
});
