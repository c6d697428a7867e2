/**
 * Accounts from first start to two people, in Chromium, on an app of its own with an empty
 * database: / leads to setup, the admin is created there, invites a second person from /admin
 * (the link copied once), who signs up with it in another browser; each person's runs are theirs
 * alone (listed for them, a 404 page for the other; the admin's system page shows the failed run by
 * account, never its question); sign-out and a wrong password behave. The admin sets Bob a password:
 * Bob's account page then lists it with who set it and every sign-in made with it, with nothing to
 * dismiss it, and the admin page's audit log records it and the backup the admin downloads. The
 * account pages pass axe without serious or critical violations.
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { type Browser, expect, type Page, test } from "@playwright/test";
import { type AppServer, freePort, startApp } from "./app-server.ts";
import { expectAccessible } from "./support/axe.ts";
import { E2E_PASSWORD, signedOut } from "./support/session.ts";

const ADMIN = { name: "Ada Admin", email: "ada@example.org", password: "ada-password-123" };
const BOB = { name: "Bob Second", email: "bob@example.org", password: E2E_PASSWORD };
const ADMIN_QUESTION = "Ada's question: how long do heat pump compressors last?";
const BOB_QUESTION = "Bob's question: does loft insulation pay back within ten years?";

async function fillNewAccount(page: Page, who: { name: string; email: string; password: string }) {
  await page.getByLabel("Name").fill(who.name);
  await page.getByLabel("Email").fill(who.email);
  await page.getByLabel("Password", { exact: true }).fill(who.password);
  await page.getByLabel("Repeat password").fill(who.password);
}

const newPerson = (browser: Browser, baseURL: string) =>
  browser.newContext({ baseURL, storageState: signedOut });

/** The questions in the home page's Recent runs list. */
async function recentQuestions(page: Page): Promise<string[]> {
  await page.goto("/");
  return page.getByRole("region", { name: "Recent runs" }).getByRole("link").allTextContents();
}

test("first start, an invitation, two people whose runs stay their own, sign-out and sign-in", async ({
  browser,
}) => {
  test.setTimeout(240_000); // two browsers, axe three times, a backup, on a shared 2-core machine
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "dr-e2e-accounts-"));
  let app: AppServer | undefined;
  try {
    // Runs here fail at once (nothing listens on this model URL) instead of using the shared script.
    app = await startApp({
      ...JSON.parse(process.env.E2E_APP_ENV ?? "{}"),
      DATA_DIR: dataDir,
      OPENAI_COMPATIBLE_BASE_URL: `http://127.0.0.1:${await freePort()}/v1`,
    });
    const adminContext = await newPerson(browser, app.url);
    await adminContext.grantPermissions(["clipboard-read", "clipboard-write"], { origin: app.url });
    const admin = await adminContext.newPage();

    // 1. An empty instance sends everyone to setup; the first account is the admin.
    await admin.goto("/");
    await expect(admin).toHaveURL(/\/setup$/);
    await expect(admin.getByText("it becomes the admin")).toBeVisible();
    await expectAccessible(admin, "/setup");
    await fillNewAccount(admin, ADMIN);
    await admin.getByLabel("Repeat password").press("Enter");
    await expect(admin).toHaveURL(`${app.url}/`);
    const adminMenu = admin.getByRole("navigation", { name: "Account" });
    await expect(adminMenu).toContainText(ADMIN.name);
    await expect(adminMenu.getByRole("link", { name: "Admin" })).toBeVisible();
    await admin.goto("/setup");
    await expect(admin).toHaveURL(`${app.url}/`);

    await adminMenu.getByRole("link", { name: "Account" }).click();
    await expect(admin.getByTestId("account-email")).toHaveText(ADMIN.email);
    await expect(admin.getByTestId("account-role")).toContainText("admin");
    await expectAccessible(admin, "/account");

    // 2. The admin invites Bob; the link is shown once, with a Copy button.
    await admin.goto("/admin");
    await expect(admin.getByRole("table", { name: "Accounts" })).toContainText(ADMIN.email);
    const invite = admin.getByRole("form", { name: "Create an invitation" });
    await invite.getByLabel("Email (optional)").fill(BOB.email);
    await invite.getByRole("button", { name: "Create invitation" }).click();
    const linkField = admin.getByLabel("Invitation link");
    await expect(linkField).toHaveValue(/\/sign-up\?invite=[A-Za-z0-9_-]{20,}$/);
    await admin.getByRole("button", { name: "Copy" }).click();
    await expect(admin.getByText("Copied to the clipboard.")).toBeVisible();
    const link = await linkField.inputValue();
    expect(await admin.evaluate(() => navigator.clipboard.readText())).toBe(link);
    const invitations = admin.getByRole("table", { name: "Invitations" });
    await expect(invitations.getByRole("row").filter({ hasText: BOB.email })).toContainText("open");
    await expectAccessible(admin, "/admin");

    // 3. Without the link sign-up is refused; with it Bob signs up in his own browser.
    const bobContext = await newPerson(browser, app.url);
    const bob = await bobContext.newPage();
    await bob.goto("/sign-up");
    await expect(bob.getByRole("heading", { level: 1 })).toHaveText("Sign-up needs an invitation");
    await bob.goto(link);
    await fillNewAccount(bob, BOB);
    await bob.getByRole("button", { name: "Create account" }).click();
    await expect(bob).toHaveURL(`${app.url}/`);
    const bobMenu = bob.getByRole("navigation", { name: "Account" });
    await expect(bobMenu).toContainText(BOB.name);
    await expect(bobMenu.getByRole("link", { name: "Admin" })).toHaveCount(0);
    // Admin pages do not exist for anyone else.
    for (const path of ["/admin", "/admin/settings", "/admin/system"]) {
      expect((await bob.goto(path))?.status(), path).toBe(404);
    }
    await admin.reload();
    await expect(invitations.getByRole("row").filter({ hasText: BOB.email })).toContainText("used");
    await expect(admin.getByRole("table", { name: "Accounts" })).toContainText(BOB.email);

    // 4. Each starts a run and sees only their own; the other's run is a 404 page.
    await admin.goto("/");
    await admin.getByLabel("Research question").fill(ADMIN_QUESTION);
    await admin.getByRole("button", { name: "Start research" }).click();
    await admin.waitForURL(/\/runs\/[0-9a-f-]{36}$/);
    const adminRun = admin.url().split("/").at(-1)!;
    const made = await bob.request.post("/api/runs", { data: { question: BOB_QUESTION } });
    expect(made.status()).toBe(201);
    const bobRun = (await made.json()).id as string;

    expect(await recentQuestions(admin)).toEqual([ADMIN_QUESTION]);
    expect(await recentQuestions(bob)).toEqual([BOB_QUESTION]);
    expect((await bob.goto(`/runs/${adminRun}`))?.status()).toBe(404);
    expect((await admin.goto(`/runs/${bobRun}`))?.status()).toBe(404);
    expect((await bob.goto(`/runs/${bobRun}`))?.status()).toBe(200);
    await expect(bob.getByRole("heading", { level: 1 })).toHaveText(BOB_QUESTION);

    // The admin's system page: Bob's failed run (nothing answers on the model's URL) by account and
    // reason, never its question.
    await expect
      .poll(async () => (await (await bob.request.get(`/api/runs/${bobRun}`)).json()).status, {
        timeout: 30_000,
      })
      .toBe("failed");
    await admin.goto("/admin/system");
    await expect(admin.getByRole("table", { name: "Recent failures" })).toContainText(BOB.email);
    const systemPage = await admin.content();
    expect(systemPage).not.toContain(BOB_QUESTION);
    expect(systemPage).not.toContain("loft insulation");

    // 5. Sign-out ends the session; a wrong password is refused with a clear message.
    await bob.getByRole("navigation", { name: "Account" }).getByRole("button", { name: "Sign out" }).click();
    await expect(bob).toHaveURL(/\/sign-in$/);
    await bob.goto(`/runs/${bobRun}`);
    await expect(bob).toHaveURL(`/sign-in?next=${encodeURIComponent(`/runs/${bobRun}`)}`);
    await expect(bob.getByRole("button", { name: "Sign in" })).toBeVisible();
    await expectAccessible(bob, "/sign-in");

    await bob.goto("/sign-in?next=/library");
    await bob.getByLabel("Email").fill(BOB.email);
    await bob.getByLabel("Password").fill("not-the-password");
    await bob.getByLabel("Password").press("Enter");
    await expect(bob.getByRole("main").getByRole("alert")).toHaveText("Wrong email or password.");
    await expect(bob).toHaveURL(/\/sign-in\?next=/);
    await bob.getByLabel("Password").fill(BOB.password);
    await bob.getByRole("button", { name: "Sign in" }).click();
    await expect(bob).toHaveURL(`${app.url}/library`);
    await expect(bob.getByRole("navigation", { name: "Account" })).toContainText(BOB.name);
    // Only an admin may make an admin token: Bob is not offered the scope.
    await bob.goto("/account");
    const bobScopes = bob.getByRole("form", { name: "Create an API token" }).getByLabel("Scope");
    await expect(bobScopes.locator("option")).toHaveText([/^research/, /^read/]);
    await expect(bob.getByRole("region", { name: "Passwords set by an admin" })).toHaveCount(0);

    // 6. The admin sets Bob a new password; Bob's account page says so, with every sign-in using it.
    await admin.goto("/admin");
    await admin.getByRole("button", { name: "Reset password" }).nth(1).click();
    const resetForm = admin.getByRole("form", { name: `Reset password of ${BOB.name}` });
    await resetForm.getByLabel(`New password for ${BOB.name}`).fill("set-by-ada-123");
    await resetForm.getByRole("button", { name: "Set password" }).click();
    await expect(admin.getByText(`New password set for ${BOB.name}`)).toBeVisible();
    await bob.goto("/account");
    await expect(bob).toHaveURL(/\/sign-in/); // a reset leaves his session, the sign-in below is new
    await bob.getByLabel("Email").fill(BOB.email);
    await bob.getByLabel("Password").fill("set-by-ada-123");
    await bob.getByRole("button", { name: "Sign in" }).click();
    await bob.waitForURL(`${app.url}/account`);
    const resets = bob.getByRole("region", { name: "Passwords set by an admin" });
    await expect(resets.getByRole("alert")).toContainText(
      `${ADMIN.name} (${ADMIN.email}) set a new password`,
    );
    await expect(resets.getByRole("alert")).toContainText("This password is temporary");
    await expect(resets.getByTestId("reset-sign-in")).toHaveCount(1);
    await expect(resets.getByTestId("reset-sign-in")).toContainText("127.0.0.1");
    await expect(resets.getByRole("button")).toHaveCount(0); // nothing dismisses it
    await expectAccessible(bob, "/account with a password set by an admin");

    // The audit log every admin sees: the reset, and a backup taken from the admin page.
    await admin.goto("/admin");
    const [download] = await Promise.all([
      admin.waitForEvent("download"),
      admin.getByRole("link", { name: "Download a backup of the database" }).click(),
    ]);
    expect(download.suggestedFilename()).toMatch(/^deep-research-.*\.tar\.gz$/);
    const backupBytes = fs.statSync((await download.path()) as string).size;
    await admin.reload();
    const audit = admin.getByRole("table", { name: "Audit log" });
    await expect(
      audit.getByRole("row").filter({ hasText: `Set the password of ${BOB.email}` }),
    ).toContainText(ADMIN.email);
    await expect(audit.getByRole("row").filter({ hasText: "Backup" })).toContainText(ADMIN.email);
    expect(backupBytes).toBeGreaterThan(1000);

    await adminContext.close();
    await bobContext.close();
  } finally {
    await app?.stop();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
});
