/**
 * Every page in German (by the browser's Accept-Language) and in Chinese (by the switcher, saved on
 * the account): home, a run in progress, a finished run, knowledge, library, account, admin and a
 * share link, and the run once cancelled. On each: `<html lang>` is the locale, no visible text (nor
 * aria-label, placeholder, title) contains a phrase of two or more words of the English catalogue —
 * in every tab, with every disclosure open, so the engine's reasons count — and axe finds no serious
 * or critical violation. The person is a fresh admin whose runs, knowledge and document are German
 * or Chinese, so their own content never reads as English; the source titles and stored passages
 * come from the English web fixture and are left out. A failure lists every offender.
 */
import { type APIRequestContext, type BrowserContext, expect, type Page, test } from "@playwright/test";
import { listViolations, seriousViolations } from "./support/axe.ts";
import { englishOnPage, englishPhrases } from "./support/english-text.ts";
import { germanScript, SEARCH_QUERIES } from "./support/german-script.ts";
import { isHanging, scriptLlm, waitForIdle, waitForStatus, webUrl } from "./support/helpers.ts";
import { sharedApp, signedOut, signUp } from "./support/session.ts";

type Locale = "de" | "zh";

/** A fresh account made admin by the shared admin (`request`): no saved language, only its own content. */
async function freshAdmin(request: APIRequestContext, baseURL: string, stamp: number) {
  const { invitation } = await (await request.post("/api/invitations", { data: {} })).json();
  const person = await signUp(sharedApp().url, {
    email: `sprachen-${stamp}@example.org`,
    name: "Jürgen Weiß",
    invite: new URL(invitation.url).searchParams.get("invite") as string,
  });
  const session = await (
    await fetch(`${baseURL}/api/auth/get-session`, { headers: { cookie: person.cookie } })
  ).json();
  const promoted = await request.post("/api/auth/admin/set-role", {
    data: { userId: session.user.id, role: "admin" },
    headers: { origin: baseURL },
  });
  expect(promoted.status(), await promoted.text()).toBe(200);
  return person;
}

/** Opens each page and collects what is wrong on it: the wrong `lang`, English phrases, axe violations. */
async function checkPages(
  page: Page,
  locale: Locale,
  pages: [string, string][],
  userContent: string[],
): Promise<string[]> {
  const phrases = englishPhrases(locale);
  const found: string[] = [];
  for (const [name, path] of pages) {
    await page.goto(path);
    await page.locator("main").first().waitFor();
    await page.waitForLoadState("load");
    const where = `[${locale}] ${name} (${path})`;
    const lang = await page.locator("html").getAttribute("lang");
    if (lang !== locale) found.push(`${where}: <html lang="${lang}">`);
    const violations = await seriousViolations(page);
    if (violations.length) found.push(listViolations(where, violations));
    const english = new Set<string>();
    await eachView(page, async () => {
      for (const { text, phrase } of await englishOnPage(page, phrases, userContent))
        english.add(`${where}: "${text}" has English "${phrase}"`);
    });
    found.push(...english);
  }
  return found;
}

/**
 * The page as shown, then each of its tabs with every disclosure open (how it was researched, the
 * activity, rounds and directives): the engine's reasons are said there, and must be in the
 * page's language too.
 */
async function eachView(page: Page, scan: () => Promise<void>): Promise<void> {
  await scan();
  const tabs = page.getByRole("tab");
  for (let i = 0; i < (await tabs.count()); i++) {
    await tabs.nth(i).click();
    await expect(tabs.nth(i)).toHaveAttribute("aria-selected", "true");
    await page.evaluate(() => {
      for (const d of document.querySelectorAll("main details")) (d as HTMLDetailsElement).open = true;
    });
    await scan();
  }
}

test("de by Accept-Language and zh by the switcher: no English phrase and no serious axe violation on any page", async ({
  browser,
  baseURL,
  request,
}) => {
  test.setTimeout(240_000);
  if (!baseURL) throw new Error("no baseURL");
  const stamp = Date.now();
  await waitForIdle(request);
  const person = await freshAdmin(request, baseURL, stamp);
  let context: BrowserContext | undefined;
  let running: string | undefined;
  const visitors: BrowserContext[] = [];
  try {
    context = await browser.newContext({
      baseURL,
      locale: "de-DE",
      storageState: { cookies: person.cookies, origins: [] },
    });
    const api = context.request;

    // A finished German run with a share link and its knowledge, and a German library document.
    await scriptLlm(germanScript(webUrl()));
    const created = await api.post("/api/runs", {
      data: { question: "Wärmepumpe oder Gaskessel bei strengem Frost: was lohnt sich?" },
    });
    expect(created.status()).toBe(201);
    const { id: finished } = await created.json();
    const run = await waitForStatus(api, finished, ["completed"], 90_000);
    const share = await (await api.post(`/api/runs/${finished}/shares`, { data: {} })).json();
    const doc = await api.post("/api/library", {
      data: {
        title: "Notizen zur Heizlast",
        text: "Zuerst die Heizlast berechnen, dann die Wärmepumpe auslegen.",
      },
    });
    expect(doc.status()).toBe(201);

    // A Chinese run kept in progress: its first researcher waits after its search.
    await scriptLlm(germanScript(webUrl(), { hangA: true }));
    running = (
      await (await api.post("/api/runs", { data: { question: "寒冷气候下热泵的效率如何？" } })).json()
    ).id;
    await expect.poll(() => isHanging("researcher-a"), { timeout: 30_000 }).toBe(true);

    const sources = (run.sources as { title: string }[]).map((s) => s.title);
    const userContent = [...sources, ...SEARCH_QUERIES];
    const sharePath = new URL(share.url).pathname;
    const pages: [string, string][] = [
      ["home", "/"],
      ["run in progress", `/runs/${running}`],
      ["finished run", `/runs/${finished}`],
      ["knowledge", "/knowledge"],
      ["library", "/library"],
      ["account", "/account"],
      ["admin", "/admin"],
      ["share (signed in)", sharePath],
    ];
    const page = await context.newPage();
    const found = await checkPages(page, "de", pages, userContent);
    // The share link as a visitor reads it: signed out, German by Accept-Language.
    const visitor = await browser.newContext({ baseURL, locale: "de-DE", storageState: signedOut });
    visitors.push(visitor);
    found.push(...(await checkPages(await visitor.newPage(), "de", [["share", sharePath]], userContent)));

    // 中文 in the header's switcher: saved on the account, every page follows.
    await page.goto("/");
    await page.getByRole("banner").getByRole("button", { name: "中文" }).click();
    await expect(page.locator("html")).toHaveAttribute("lang", "zh");
    found.push(...(await checkPages(page, "zh", pages, userContent)));

    // Cancelled by its owner: its end, and its researcher's directive, said in Chinese too.
    const stopped = running as string;
    expect((await api.post(`/api/runs/${stopped}/cancel`)).status()).toBe(202);
    await waitForStatus(api, stopped, ["cancelled"], 30_000);
    found.push(...(await checkPages(page, "zh", [["cancelled run", `/runs/${stopped}`]], userContent)));

    // Back to English for the account, as languages.spec.ts leaves the shared admin.
    await page.goto("/");
    await page.getByRole("banner").getByRole("button", { name: "English" }).click();
    await expect(page.locator("html")).toHaveAttribute("lang", "en");

    if (found.length) console.log(`English or axe offenders (${found.length}):\n${found.join("\n")}`);
    expect(found, found.join("\n")).toEqual([]);
  } finally {
    if (running) await context?.request.post(`/api/runs/${running}/cancel`).catch(() => undefined);
    for (const v of visitors) await v.close();
    await context?.close();
  }
});
