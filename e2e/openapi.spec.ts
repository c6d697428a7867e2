/**
 * The API reference in the built app, as a visitor without a session sees it: the OpenAPI document
 * answers JSON that lists every route, and /api/docs is an HTML page under the API's own policy (no
 * script runs) that passes axe and links each operation to the schemas it uses. The policy's
 * sandbox stops axe's own script too, so axe reads the same served HTML in a page of its own.
 */
import { expect, test } from "@playwright/test";
import { expectAccessible } from "./support/axe.ts";
import { signedOut } from "./support/session.ts";

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
