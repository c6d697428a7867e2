/**
 * "Stop and write the report now" against the built app with the scripted model: researcher A
 * finishes, B hangs mid-research; the owner asks for the report from the run page. The run ends
 * completed with a partial report that rests on A's findings, B reads "skipped", and steering is
 * refused with 409 once the report is being written.
 */
import { expect, test } from "@playwright/test";
import { llmRequests, scriptLlm, waitForIdle, waitForStatus, webUrl } from "./support/helpers.ts";
import { researchScript, TOPIC_A, TOPIC_B } from "./support/research-script.ts";

test("write the report now: a partial report from what was gathered, steering refused after", async ({
  page,
  request,
}) => {
  await waitForIdle(request);
  await scriptLlm(researchScript({ webUrl: webUrl(), researcherB: [{ kind: "hang" }] }));
  const created = await request.post("/api/runs", {
    data: { question: "Heat pump or gas boiler for a cold-climate home, stopped early?" },
  });
  expect(created.status()).toBe(201);
  const { id } = await created.json();
  await expect
    .poll(
      async () => {
        const run = await (await request.get(`/api/runs/${id}`)).json();
        const a = run.directives.find((d: { topic: string }) => d.topic === TOPIC_A);
        const stalled = (await llmRequests()).some((r) => r.rule === "researcher-b" && r.status === 0);
        return a?.status === "done" && stalled;
      },
      { timeout: 60_000 },
    )
    .toBe(true);

  await page.goto(`/runs/${id}`);
  await page.getByRole("button", { name: /write the report now/i }).click();
  const confirm = page.getByRole("button", { name: /yes, write it now/i });
  if (await confirm.isVisible().catch(() => false)) await confirm.click();

  const run = await waitForStatus(request, id, ["completed", "failed", "cancelled"]);
  expect(run.status).toBe("completed");
  expect(run.reportPartial).toBe(true);
  expect(String(run.report)).toMatch(/^> \*\*Partial report\.\*\* Research was stopped early/);
  const byTopic = new Map(
    (run.directives as { topic: string; status: string }[]).map((d) => [d.topic, d.status]),
  );
  expect(byTopic.get(TOPIC_A)).toBe("done");
  expect(byTopic.get(TOPIC_B)).toBe("skipped");

  // Late steering: the API refuses it, and the page no longer offers the form.
  const late = await request.post(`/api/runs/${id}/directives`, {
    data: { topic: "Noise levels of outdoor heat pump units at night", priority: "high" },
  });
  expect(late.status()).toBe(409);
  await page.reload();
  await expect(page.getByText(/partial/i).first()).toBeVisible();
  await expect(page.getByRole("form", { name: /add a directive/i })).toHaveCount(0);
});
