/**
 * The UI in the reader's language: with `Accept-Language: de` the sign-in page and the header are
 * German and `<html lang="de">`; choosing 中文 in the switcher shows Chinese and the choice holds
 * after a reload — in the cookie when signed out, on the account when signed in (a fresh browser
 * asking for German still gets Chinese). The shared admin is set back to English afterwards.
 */
import { expect, type Page, test } from "@playwright/test";
import { signedOut, storageStatePath } from "./support/session.ts";

const html = (page: Page) => page.locator("html");

test("signed out: German by Accept-Language, Chinese by the switcher, kept after a reload", async ({
  browser,
  baseURL,
}) => {
  const context = await browser.newContext({ baseURL, storageState: signedOut, locale: "de-DE" });
  const page = await context.newPage();
  await page.goto("/sign-in");
  await expect(html(page)).toHaveAttribute("lang", "de");
  await expect(html(page)).toHaveAttribute("dir", "ltr");
  await expect(page.getByRole("heading", { name: "Anmelden" })).toBeVisible();
  await expect(page.getByLabel("E-Mail")).toBeVisible();
  await expect(page.getByRole("button", { name: "Deutsch" })).toHaveAttribute("aria-pressed", "true");

  // A wrong password: the error is shown by its code, in German.
  await page.getByLabel("E-Mail").fill("nobody@example.org");
  await page.getByLabel("Passwort").fill("not-the-password-1");
  await page.getByRole("button", { name: "Anmelden" }).click();
  await expect(page.getByText("E-Mail oder Passwort ist falsch.")).toBeVisible();

  await page.getByRole("button", { name: "中文" }).click();
  await expect(page).toHaveURL(/\/sign-in$/);
  await expect(html(page)).toHaveAttribute("lang", "zh");
  await expect(page.getByRole("heading", { name: "登录" })).toBeVisible();
  await page.reload();
  await expect(page.getByRole("heading", { name: "登录" })).toBeVisible();
  await expect(page.getByLabel("电子邮箱")).toBeVisible();
  await context.close();
});

test("signed in: a German header, and 中文 saved on the account", async ({ browser, baseURL }) => {
  const context = await browser.newContext({ baseURL, locale: "de-DE" });
  const page = await context.newPage();
  const header = page.getByRole("banner");
  try {
    await page.goto("/");
    await expect(html(page)).toHaveAttribute("lang", "de");
    await expect(header.getByRole("link", { name: "Durchläufe" })).toBeVisible();
    await expect(header.getByRole("link", { name: "Bibliothek" })).toBeVisible();
    await expect(header.getByRole("link", { name: "Konto" })).toBeVisible();
    await expect(header.getByRole("button", { name: "Abmelden" })).toBeVisible();

    await header.getByRole("button", { name: "中文" }).click();
    await expect(html(page)).toHaveAttribute("lang", "zh");
    await expect(header.getByRole("link", { name: "资料库" })).toBeVisible();
    await page.reload();
    await expect(header.getByRole("button", { name: "退出登录" })).toBeVisible();

    // Another browser of the same person, without the switcher's cookie, asking for German.
    const other = await browser.newContext({ baseURL, storageState: storageStatePath, locale: "de-DE" });
    const second = await other.newPage();
    await second.goto("/");
    await expect(html(second)).toHaveAttribute("lang", "zh");
    await other.close();
  } finally {
    // The shared admin reads English in every other spec.
    await page.goto("/");
    await header.getByRole("button", { name: "English" }).click();
    await expect(html(page)).toHaveAttribute("lang", "en");
    await context.close();
  }
});
