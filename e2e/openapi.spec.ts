/**
 * The API reference in the built app, as a visitor without a session sees it: the OpenAPI document
 * answers JSON that lists every route, and /api/docs is an HTML page under the API's own policy (no
 * script runs) that passes axe and links each operation to the schemas it uses. The policy's
 * sandbox stops axe's own script too, so axe reads the same served HTML in a page of its own.
 * /docs/api is the reference people read: the same document in the app's colours, rendered by the
 * bundled Scalar viewer under the pages' nonce policy, fitting a phone, linked from the account page.
 */
import { expect, test } from "@playwright/test";
import { expectAccessible } from "./support/axe.ts";
import { signedOut, storageStatePath } from "./support/session.ts";

test.use({ storageState: signedOut });

test("the OpenAPI document and the reference page are open, and the page is accessible", async ({
  browser,
  page,
  request,
}) => {
  // axe reads every schema block on the page, in both colour schemes: slower than a usual page.
  test.setTimeout(180_000);
  const documentResponse = await request.get("/api/openapi.json");
  expect(documentResponse.status()).toBe(200);
  const doc = await documentResponse.json();
  expect(doc.openapi).toBe("3.1.0");
  expect(Object.keys(doc.paths)).toEqual(expect.arrayContaining(["/api/runs", "/api/runs/{id}/events"]));

  const response = await page.goto("/api/docs");
  expect(response?.status()).toBe(200);
  expect(response?.headers()["content-type"]).toBe("text/html; charset=utf-8");
  // The API's policy applies: the page can load and run nothing.
  expect(response?.headers()["content-security-policy"]).toContain("sandbox");
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Deep Research API reference");
  await expect(page.getByRole("heading", { name: "POST /api/runs: Start a run" })).toBeVisible();
  await expect(page.getByRole("navigation", { name: "Contents" })).toBeVisible();

  // A schema link leads to its definition on the same page.
  await page.getByRole("link", { name: "CreatedRun" }).first().click();
  await expect(page).toHaveURL(/#schema-createdrun$/);
  await expect(page.getByRole("heading", { name: "CreatedRun", level: 3 })).toBeInViewport();

  const html = await (await request.get("/api/docs")).text();
  const context = await browser.newContext({ storageState: signedOut });
  const copy = await context.newPage();
  await copy.setContent(html);
  await expectAccessible(copy, "/api/docs");
  await context.close();
});

test("the API docs page renders the document with the app's own viewer, under the pages' policy, on a phone too", async ({
  page,
  browser,
}) => {
  // axe reads the whole rendered reference, in both colour schemes.
  test.setTimeout(180_000);
  const requested: string[] = [];
  const refused: string[] = [];
  page.on("request", (r) => requested.push(r.url()));
  page.on("console", (m) => {
    if (/Content.Security.Policy|Refused to/i.test(m.text())) refused.push(m.text());
  });
  await page.setViewportSize({ width: 390, height: 844 });
  const response = await page.goto("/docs/api");
  expect(response?.status()).toBe(200);
  // The pages' policy: scripts only with this response's nonce, fonts and requests only from here.
  const policy = response?.headers()["content-security-policy"] ?? "";
  expect(policy).toMatch(/script-src 'self' 'nonce-[^']+' 'strict-dynamic'/);
  expect(policy).toContain("connect-src 'self'");

  await expect(page.getByRole("heading", { level: 1, name: "API reference" })).toBeVisible();
  // The viewer has rendered the document: its title and an operation's summary.
  await expect(page.getByRole("heading", { name: "Deep Research API" }).first()).toBeVisible({
    timeout: 30_000,
  });
  await expect(page.getByText("Start a run").first()).toBeAttached();
  expect(
    await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth),
  ).toBeLessThanOrEqual(0);
  // Readable: the page's text is not the browser's default serif.
  expect(await page.evaluate(() => getComputedStyle(document.body).fontFamily)).not.toMatch(/^"?Times/);

  await page.setViewportSize({ width: 1280, height: 800 });
  await expectAccessible(page, "/docs/api");
  expect(refused).toEqual([]);
  // Nothing from another origin: no CDN font, no proxy, no telemetry.
  const here = new URL(page.url()).origin;
  expect(requested.filter((u) => !u.startsWith(`${here}/`) && !/^(data|blob):/.test(u))).toEqual([]);

  // The account page's token section leads here.
  const signedIn = await browser.newContext({ storageState: storageStatePath });
  const account = await signedIn.newPage();
  await account.goto("/account");
  const link = account
    .getByRole("region", { name: "API tokens" })
    .getByRole("link", { name: "The API reference" });
  await expect(link).toHaveAttribute("href", "/docs/api");
  await signedIn.close();
});
