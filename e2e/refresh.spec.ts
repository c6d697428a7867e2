/**
 * Refresh in Chromium, with the scripted model and the unchanged local web fixture: a finished
 * run's "Refresh" button (a server-action form) starts its next version; the version re-checks the
 * cited pages (all unchanged here), finishes, and the version switcher lists both versions. With
 * nothing changed on the web or in the claims, the two versions do not differ.
 */
import { expect, test } from "@playwright/test";
import { scriptLlm, waitForIdle, waitForStatus, webUrl } from "./support/helpers.ts";
import { researchScript } from "./support/research-script.ts";

test("Refresh starts the next version; an unchanged refresh gives an empty diff", async ({
  page,
  request,
}) => {
  test.setTimeout(240_000);
  await waitForIdle(request);
  await scriptLlm(researchScript({ webUrl: webUrl() }));
  const created = await request.post("/api/runs", { data: { question: "Heat pumps in a cold climate?" } });
  expect(created.status()).toBe(201);
  const { id: first } = await created.json();
  await waitForStatus(request, first, ["completed"]);

  await page.goto(`/runs/${first}`);
  await page.getByTestId("refresh-form").getByRole("button", { name: "Refresh" }).click();
  await page.waitForURL((url) => url.pathname.startsWith("/runs/") && !url.pathname.endsWith(first));
  const second = new URL(page.url()).pathname.split("/")[2];
  expect((await (await request.get(`/api/runs/${second}`)).json()).versionOf).toBe(first);
  await waitForStatus(request, second, ["completed"]);

  const view = await (await request.get(`/api/runs/${second}`)).json();
  const rechecked = view.sources.filter((s: { recheck: string | null }) => s.recheck !== null);
  expect(rechecked.length).toBeGreaterThan(0);
  expect(rechecked.every((s: { recheck: string }) => s.recheck === "unchanged")).toBe(true);
  const versions = await (await request.get(`/api/runs/${second}/versions`)).json();
  expect(versions.map((v: { id: string }) => v.id)).toEqual([first, second]);

  await page.goto(`/runs/${second}`);
  await expect(page.getByRole("link", { name: "Version 1", exact: true })).toBeVisible();
  await expect(page.getByText("Version 2", { exact: true }).first()).toBeVisible();
  const diff = await (await request.get(`/api/runs/${second}/diff?against=${first}`)).json();
  expect(diff.differ).toBe(false);
});
