/**
 * Output hardening in the built app: every page carries a Content-Security-Policy with a fresh
 * nonce (no 'unsafe-eval') and works under it without a single violation; the report download is an
 * attachment; a share link opens in a fresh browser (no cookies) as the report alone — not indexed,
 * no Referer, no navigation into the owner's pages — and dies when revoked.
 */
import {
  type APIResponse,
  type BrowserContext,
  expect,
  type Page,
  type Response,
  test,
} from "@playwright/test";
import { scriptLlm, waitForIdle, waitForStatus, webUrl } from "./support/helpers.ts";
import { researchScript } from "./support/research-script.ts";
import { signedOut } from "./support/session.ts";

/** CSP violations a page reports: console errors, and the DOM's own violation events. */
async function watchViolations(context: BrowserContext): Promise<(page: Page) => Promise<string[]>> {
  const consoleErrors: string[] = [];
  // Installed through the browser's devtools protocol, so the policy does not apply to it.
  await context.addInitScript(() => {
    const w = window as unknown as { __violations: string[] };
    w.__violations = [];
    document.addEventListener("securitypolicyviolation", (e) =>
      w.__violations.push(`${e.violatedDirective} ${e.blockedURI}`),
    );
  });
  context.on("console", (m) => {
    if (m.type() === "error" && /Content Security Policy/i.test(m.text())) consoleErrors.push(m.text());
  });
  return async (page) => [
    ...consoleErrors,
    ...(await page.evaluate(() => (window as unknown as { __violations: string[] }).__violations)),
  ];
}

/** The page's policy: present, with a nonce that Next put on its scripts, and without 'unsafe-eval'. */
async function expectNoncePolicy(page: Page, response: Response | null) {
  expect(response?.status()).toBe(200);
  const headers = response!.headers();
  const policy = headers["content-security-policy"] ?? "";
  const nonce = policy.match(/'nonce-([A-Za-z0-9+/=]+)'/)?.[1];
  expect(nonce, policy).toBeDefined();
  expect(policy).toContain("'strict-dynamic'");
  expect(policy).not.toContain("unsafe-eval");
  expect(policy).toContain("frame-ancestors 'none'");
  expect(policy).toContain("img-src 'self' data:;");
  expect(policy).toContain("connect-src 'self'");
  expect(headers["x-content-type-options"]).toBe("nosniff");
  // Next applied the nonce to every script of the document it sent. Chunks loaded later (a chart,
  // the Markdown renderer) are inserted by those scripts, which 'strict-dynamic' trusts without a
  // nonce; the violation watcher checks that they ran.
  const tags = (await response!.text()).match(/<script\b[^>]*>/g) ?? [];
  expect(tags.length).toBeGreaterThan(0);
  for (const tag of tags) expect(tag).toContain(`nonce="${nonce}"`);
  // In the page, a script with a nonce has this one (the DOM hides the value from getAttribute).
  const scriptNonces = await page
    .locator("script")
    .evaluateAll((els) => els.map((s) => (s as HTMLScriptElement).nonce).filter(Boolean));
  expect(scriptNonces.length).toBeGreaterThan(0);
  for (const n of scriptNonces) expect(n).toBe(nonce);
  return { policy, nonce: nonce!, headers };
}

const expectAttachment = (r: APIResponse) => {
  expect(r.status()).toBe(200);
  expect(r.headers()["content-disposition"]).toMatch(/^attachment; filename="report-[0-9a-f-]{36}\.md"$/);
  expect(r.headers()["x-content-type-options"]).toBe("nosniff");
};

test.beforeEach(async ({ request }) => {
  await waitForIdle(request);
});

test("every page has a nonce CSP and works under it; the share link stands alone", async ({
  page,
  browser,
  request,
}) => {
  const violations = await watchViolations(page.context());
  await scriptLlm(researchScript({ webUrl: webUrl() }));
  const question = "Heat pumps under a strict content security policy?";

  // Home: the policy, a fresh nonce per response, and a working (hydrated) form that starts a run.
  const home = await expectNoncePolicy(page, await page.goto("/"));
  expect(home.headers["referrer-policy"]).toBe("strict-origin-when-cross-origin");
  const again = await expectNoncePolicy(page, await page.goto("/"));
  expect(again.nonce).not.toBe(home.nonce);
  await page.getByLabel("Research question").fill(question);
  await page.getByRole("button", { name: "Start research" }).click();
  await page.waitForURL(/\/runs\/[0-9a-f-]{36}$/);
  const id = page.url().split("/").at(-1)!;

  // The run page streams the run live (EventSource: connect-src 'self') and renders the report.
  await expect(page.getByTestId("run-status")).toHaveAttribute("data-status", "completed", {
    timeout: 60_000,
  });
  await expect(
    page.getByRole("region", { name: "Report", exact: true }).getByRole("heading", { name: "Sources" }),
  ).toBeVisible();
  await expectNoncePolicy(page, await page.reload());
  await expect(page.getByTestId("run-status")).toHaveAttribute("data-status", "completed");

  // The report download is an attachment the browser does not sniff.
  expectAttachment(await request.get(`/api/runs/${id}/report.md`));

  // A share link made in the run page's Share panel, shown once.
  const panel = page.getByRole("region", { name: "Share" });
  await panel.getByLabel("Label").fill("for the neighbours");
  await panel.getByLabel("Expires after").selectOption({ label: "7 days" });
  await panel.getByRole("button", { name: "Create link" }).click();
  const link = panel.getByLabel("New share link");
  await expect(link).toHaveValue(/\/share\/[A-Za-z0-9_-]{43}$/);
  const url = await link.inputValue();
  const listed = panel.getByRole("list", { name: "Share links" }).getByRole("listitem");
  await expect(listed.filter({ hasText: "for the neighbours" })).toContainText("expires");
  const { shares } = await (await request.get(`/api/runs/${id}/shares`)).json();
  const share = shares.find((s: { label: string }) => s.label === "for the neighbours");
  expect(share).toBeDefined();
  expect(JSON.stringify(shares)).not.toContain(url.split("/").at(-1));

  // Library and knowledge pages: under the policy, and interactive.
  await expectNoncePolicy(page, await page.goto("/library"));
  await page.getByRole("tab", { name: /URL/ }).click();
  await expect(page.getByRole("tab", { name: /URL/ })).toHaveAttribute("aria-selected", "true");
  await expectNoncePolicy(page, await page.goto("/knowledge"));
  const all = page.getByRole("button", { name: /^All \(/ });
  await all.click();
  await expect(all).toHaveAttribute("aria-pressed", "true");
  expect(await violations(page)).toEqual([]);

  // The share page in a fresh browser: no cookies, no owner.
  // Explicitly signed out: a new context would otherwise inherit the suite's signed-in storage state.
  const stranger = await browser.newContext({ storageState: signedOut });
  const strangerViolations = await watchViolations(stranger);
  const sharedPage = await stranger.newPage();
  const shared = await expectNoncePolicy(sharedPage, await sharedPage.goto(url));
  expect(shared.headers["referrer-policy"]).toBe("no-referrer");
  await expect(sharedPage.locator('meta[name="robots"]')).toHaveAttribute("content", "noindex, nofollow");
  await expect(sharedPage.locator('meta[name="referrer"]')).toHaveAttribute("content", "no-referrer");
  await expect(sharedPage.getByRole("heading", { level: 1 })).toHaveText(question);
  await expect(sharedPage.getByRole("heading", { name: "Sources" })).toBeVisible();
  await expect(sharedPage.getByRole("navigation")).toHaveCount(0);
  await expect(sharedPage.locator('a[href="/"], a[href="/knowledge"], a[href="/library"]')).toHaveCount(0);
  await expect(sharedPage.locator("img")).toHaveCount(0);
  expect(await strangerViolations(sharedPage)).toEqual([]);
  expect((await stranger.cookies()).length).toBe(0);

  // Revoked in the owner's panel: the link is gone.
  await page.goto(`/runs/${id}`);
  // Revoke asks first; "Keep it" changes nothing.
  const item = listed.filter({ hasText: "for the neighbours" });
  await item.getByText("Revoke…").click();
  await item.getByRole("button", { name: "Keep it" }).click();
  await expect(item.getByRole("button", { name: "Revoke the link" })).toBeHidden();
  await item.getByText("Revoke…").click();
  await item.getByRole("button", { name: "Revoke the link" }).click();
  await expect(listed.filter({ hasText: "for the neighbours" })).toContainText("revoked");
  expect((await sharedPage.goto(url))?.status()).toBe(404);
  await stranger.close();

  // An API answer is data: it gets the strict API policy, never the pages' one.
  const api = await request.get(`/api/runs/${id}`);
  expect(api.headers()["content-security-policy"]).toBe(
    "default-src 'none'; frame-ancestors 'none'; sandbox",
  );
  expect(api.headers()["x-content-type-options"]).toBe("nosniff");
  await waitForStatus(request, id, ["completed"]);
});
