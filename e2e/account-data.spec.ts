/**
 * A person's data and the admin's views of people, in Chromium on the shared app: an invited person
 * runs research, sees their usage on /account, exports their data (a .tar.gz download whose run
 * report matches report.md), then deletes their account in the UI, lands on sign-in and cannot sign
 * in again. The admin saves a person's limits on /admin and sees /admin/system — the person's failed
 * run by account and reason, never its question; a non-admin gets a 404 there. /account and
 * /admin/system pass axe.
 */
import fs from "node:fs";
import { gunzipSync } from "node:zlib";
import { expect, test } from "@playwright/test";
import { expectAccessible } from "./support/axe.ts";
import { scriptLlm, waitForIdle, waitForStatus, webUrl } from "./support/helpers.ts";
import { researchScript } from "./support/research-script.ts";
import { E2E_PASSWORD, sharedApp, signedOut, signUp } from "./support/session.ts";

/** The files of a .tar.gz by name (ustar headers: name at 0, octal size at 124). */
function untar(gz: Buffer): Map<string, string> {
  const tar = gunzipSync(gz);
  const files = new Map<string, string>();
  for (let at = 0; at + 512 <= tar.length; ) {
    const header = tar.subarray(at, at + 512);
    if (header.every((b) => b === 0)) break;
    const text = (from: number, length: number) =>
      header
        .subarray(from, from + length)
        .toString("ascii")
        .replace(/\0.*$/s, "");
    const size = Number.parseInt(text(124, 12), 8);
    files.set(text(0, 100), tar.subarray(at + 512, at + 512 + size).toString("utf8"));
    at += 512 + Math.ceil(size / 512) * 512;
  }
  return files;
}

test("a person exports their data and deletes their account; the admin sets limits and sees the system page", async ({
  page,
  request,
  browser,
}) => {
  test.setTimeout(150_000);
  const stamp = Date.now();
  const email = `leaving-${stamp}@example.org`;
  const { invitation } = await (await request.post("/api/invitations", { data: {} })).json();
  const person = await signUp(sharedApp().url, {
    email,
    name: "Leaving Person",
    invite: new URL(invitation.url).searchParams.get("invite") as string,
  });
  const context = await browser.newContext({ storageState: { cookies: person.cookies, origins: [] } });
  try {
    const me = await context.newPage();

    // A finished run of their own, so there is usage to show and a report to export.
    await waitForIdle(request);
    await scriptLlm(researchScript({ webUrl: webUrl() }));
    const created = await context.request.post("/api/runs", {
      data: { question: "Heat pump or gas boiler for a cold climate?" },
    });
    expect(created.status()).toBe(201);
    const { id } = await created.json();
    await waitForStatus(context.request, id, ["completed"], 90_000);
    const report = await (await context.request.get(`/api/runs/${id}/report.md`)).text();
    expect(report).toContain("Sources");

    // A run that fails (the model answers nothing now): the system page shows it without its question.
    await scriptLlm([]);
    const privateQuestion = `Private question ${stamp}: should I answer my landlord's letter?`;
    const failing = await context.request.post("/api/runs", { data: { question: privateQuestion } });
    expect(failing.status()).toBe(201);
    await waitForStatus(context.request, (await failing.json()).id, ["failed"], 60_000);

    // The admin's pages are not theirs: a 404, page and API.
    expect((await me.goto("/admin/system"))?.status()).toBe(404);
    expect((await context.request.get("/api/admin/system")).status()).toBe(404);

    // Usage on the account page: the numbers by role. The scripted model has no price: the cost
    // reads as unknown (not "$0.00") and no empty cost chart is drawn.
    await me.goto("/account");
    await expect(me.getByTestId("usage-total-cost")).toHaveText("cost unknown — set MODEL_PRICING");
    await expect(me.getByTestId("usage-chart")).toHaveCount(0);
    await expect(me.getByRole("table", { name: "Usage by role" })).toContainText("Researchers");
    await expect(me.getByRole("table", { name: "Usage by day" })).toContainText(
      new Date().toISOString().slice(0, 10),
    );
    await expectAccessible(me, "/account");

    // The admin gives them a monthly cost limit on /admin, and sees the system page.
    await page.goto("/admin");
    const row = page.getByTestId(`limits-${email}`);
    await row.getByLabel(`Monthly cost limit in USD for ${email}`).fill("12.5");
    await row.getByLabel(`Runs at once for ${email}`).fill("2");
    await row.getByRole("button", { name: "Save limits" }).click();
    await expect(page.getByText("Limits saved for Leaving Person.")).toBeVisible();
    await page.reload();
    await expect(
      page.getByTestId(`limits-${email}`).getByLabel(`Monthly cost limit in USD for ${email}`),
    ).toHaveValue("12.5");
    await page.goto("/admin/system");
    for (const heading of [
      "Runs in progress and waiting",
      "Recent failures",
      "Model errors (last 30 days)",
      "Cost per day",
    ]) {
      await expect(page.getByRole("heading", { name: heading })).toBeVisible();
    }
    await expect(page.getByTestId("system-cost-chart")).toBeVisible();
    await expect(page.getByRole("table", { name: "Model errors by role" })).toBeVisible();
    await expect(page.getByRole("table", { name: "Recent failures" })).toContainText(email);
    expect(await page.content()).not.toContain("landlord");
    await expectAccessible(page, "/admin/system");

    // Export: one archive with the run's report and its record.
    await me.goto("/account");
    const [download] = await Promise.all([
      me.waitForEvent("download"),
      me.getByRole("link", { name: "Export my data" }).click(),
    ]);
    expect(download.suggestedFilename()).toMatch(/^deep-research-export-\d{4}-\d{2}-\d{2}\.tar\.gz$/);
    const files = untar(fs.readFileSync((await download.path()) as string));
    const md = [...files.keys()].find((n) => n.endsWith(`-${id}.md`));
    expect(md).toMatch(/^runs\/heat-pump-or-gas-boiler-for-a-cold-[a-z-]*-[0-9a-f-]{36}\.md$/);
    expect(files.get(md as string)).toBe(report);
    const record = JSON.parse(files.get((md as string).replace(/\.md$/, ".json")) as string);
    expect(record.run.id).toBe(id);
    expect(record.sources.length).toBeGreaterThan(0);
    expect(record.events.map((e: { type: string }) => e.type)).toContain("run.completed");
    expect(files.has("knowledge.json")).toBe(true);

    // Delete: the button waits for the typed email; then sign-in, and signing in fails.
    const remove = me.getByRole("button", { name: "Delete my account" });
    await expect(remove).toBeDisabled();
    await me.getByLabel(/Type your email/).fill(email);
    await remove.click();
    await expect(me).toHaveURL(/\/sign-in$/);
    expect((await context.request.get("/api/runs")).status()).toBe(401);
    const visitor = await browser.newContext({ storageState: signedOut });
    const signIn = await visitor.newPage();
    await signIn.goto("/sign-in");
    await signIn.getByLabel("Email").fill(email);
    await signIn.getByLabel("Password").fill(E2E_PASSWORD);
    await signIn.getByLabel("Password").press("Enter");
    await expect(signIn.getByRole("main").getByRole("alert")).toHaveText("Wrong email or password.");
    await visitor.close();

    // Gone from the admin's lists too.
    await page.goto("/admin");
    await expect(page.getByRole("table", { name: "Accounts" })).not.toContainText(email);
  } finally {
    await context.close();
  }
});
