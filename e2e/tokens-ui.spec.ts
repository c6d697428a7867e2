/**
 * Personal API tokens from the account page: a token is created in the UI with a scope and an
 * expiry, and its secret shown once (gone after a reload, where the list shows only its last four
 * characters, its scope, expiry and last use); the secret works as a bearer token on the API within
 * its scope (a read token cannot start a run); revoked in the UI (after confirming), it is refused
 * with 401. The page passes axe, and the webhook signing secret can be revealed there.
 */
import { expect, test } from "@playwright/test";
import { expectAccessible } from "./support/axe.ts";
import { sharedApp, signedOut } from "./support/session.ts";

test("create a token in the UI, use it on the API, revoke it in the UI", async ({ page, playwright }) => {
  test.setTimeout(180_000); // axe in two colour schemes, twice, on a shared 2-core machine
  const name = `script ${Date.now().toString(36)}`;
  await page.goto("/account");
  await expectAccessible(page, "account page");

  const form = page.getByRole("form", { name: "Create an API token" });
  // The admin is offered every scope; research for 90 days unless chosen otherwise.
  await expect(form.getByLabel("Scope").locator("option")).toHaveText([/^research/, /^read/, /^admin/]);
  await expect(form.getByLabel("Scope")).toHaveValue("research");
  await expect(form.getByLabel("Expires after")).toHaveValue("90");
  await form.getByLabel("Name").fill(name);
  await form.getByLabel("Expires after").selectOption("30");
  await form.getByRole("button", { name: "Create token" }).click();

  const created = page.getByTestId("new-token");
  await expect(created).toContainText("you will not see it again");
  const secret = await created.getByLabel("Your new token").inputValue();
  expect(secret).toMatch(/^drt_[\w-]{40,}$/);
  const row = page.getByTestId("token-row").filter({ hasText: name });
  await expect(row.getByTestId("token-hint")).toHaveText(`…${secret.slice(-4)}`);
  await expect(row.getByTestId("token-state")).toHaveText("active");
  await expect(row.getByTestId("token-scope")).toHaveText("research");
  const in30Days = new Date(Date.now() + 30 * 86_400_000).toISOString().slice(0, 10);
  await expect(row.getByTestId("token-expires")).toContainText(in30Days);
  await expectAccessible(page, "account page with a new token");

  // Shown once: after a reload the secret is nowhere on the page, only its hint.
  await page.reload();
  await expect(page.getByTestId("token-row").filter({ hasText: name })).toBeVisible();
  await expect(page.getByTestId("new-token")).toHaveCount(0);
  expect(await page.content()).not.toContain(secret);
  await expect(page.getByTestId("token-row").filter({ hasText: name }).getByTestId("token-hint")).toHaveText(
    `…${secret.slice(-4)}`,
  );

  // A read token, made the same way, reads but cannot start research.
  const readerName = `reader ${Date.now().toString(36)}`;
  await form.getByLabel("Name").fill(readerName);
  await form.getByLabel("Scope").selectOption("read");
  await form.getByRole("button", { name: "Create token" }).click();
  await expect(page.getByTestId("token-row").filter({ hasText: readerName })).toBeVisible();
  const reader = await page.getByTestId("new-token").getByLabel("Your new token").inputValue();
  await expect(
    page.getByTestId("token-row").filter({ hasText: readerName }).getByTestId("token-scope"),
  ).toHaveText("read");

  // The token acts as its owner on the API, with no cookie at all, within its scope.
  const api = await playwright.request.newContext({ baseURL: sharedApp().url, storageState: signedOut });
  const bearer = { authorization: `Bearer ${secret}` };
  try {
    const readOnly = { authorization: `Bearer ${reader}` };
    expect((await api.get("/api/runs", { headers: readOnly })).status()).toBe(200);
    const refusedRun = await api.post("/api/runs", { headers: readOnly, data: { question: "Read only?" } });
    expect(refusedRun.status()).toBe(403);
    expect((await refusedRun.json()).error.details).toEqual({
      requiredScope: "research",
      tokenScope: "read",
    });
    expect((await api.get("/api/runs", { headers: bearer })).status()).toBe(200);
    const started = await api.post("/api/runs", {
      headers: bearer,
      data: { question: "How do heat pumps cope with frost?" },
    });
    expect(started.status()).toBe(201);

    // Revoke in the UI: it asks first, and "Keep it" changes nothing.
    const live = page.getByTestId("token-row").filter({ hasText: name });
    await live.getByRole("button", { name: `Revoke ${name}` }).click();
    await live.getByRole("button", { name: "Keep it" }).click();
    await expect(live.getByTestId("token-state")).toHaveText("active");
    await live.getByRole("button", { name: `Revoke ${name}` }).click();
    await expect(live.getByRole("alert")).toContainText("Anything using it stops working");
    await live.getByRole("button", { name: "Yes, revoke" }).click();
    await expect(live.getByTestId("token-state")).toContainText("revoked");
    await expect(live.getByRole("button", { name: `Revoke ${name}` })).toHaveCount(0);

    const refused = await api.get("/api/runs", { headers: bearer });
    expect(refused.status()).toBe(401);
    expect((await refused.json()).error.code).toBe("unauthorized");
    expect((await api.post("/api/runs", { headers: bearer, data: { question: "Again?" } })).status()).toBe(
      401,
    );
  } finally {
    await api.dispose();
  }
});

test("the webhook signing secret is revealed on request and changes when rotated", async ({ page }) => {
  test.setTimeout(180_000);
  await page.goto("/account");
  const section = page.getByRole("region", { name: "Webhook signing secret" });
  await section.getByRole("button", { name: "Reveal secret" }).click();
  const field = section.getByLabel("Webhook signing secret");
  await expect(field).toHaveValue(/^whsec_[\w-]{40,}$/);
  const first = await field.inputValue();
  await section.getByRole("button", { name: "Rotate secret" }).click();
  await section.getByRole("button", { name: "Yes, rotate" }).click();
  await expect(section.getByRole("status").filter({ hasText: "New signing secret made" })).toBeVisible();
  await expect(field).not.toHaveValue(first);
  await expect(field).toHaveValue(/^whsec_/);
  await expectAccessible(page, "account page with the webhook secret");
  // The same secret comes back when revealed again later.
  const rotated = await field.inputValue();
  await page.reload();
  await section.getByRole("button", { name: "Reveal secret" }).click();
  await expect(field).toHaveValue(rotated);
});
