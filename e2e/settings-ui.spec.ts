/**
 * The admin settings page as an admin uses it: moves the researcher to another model in the UI,
 * tests the OpenAI-compatible server (and sees it refuse structured outputs), starts a run, and finds the new model on the researcher's
 * row of the run's Usage tab (and in what the scripted server was asked). The page passes axe.
 * Sets a base URL for OpenAI (a new one then needs the key again; its Test keeps the saved key).
 * The models and OpenAI go back to "use environment" afterwards, so later specs get the environment's.
 */
import { expect, test } from "@playwright/test";
import { roleLabel } from "../components/run/activity-labels.ts";
import type { ScriptRule } from "../test/support/llm-server.ts";
import { expectAccessible } from "./support/axe.ts";
import { english } from "./support/english.ts";
import {
  baseUrl,
  llmOrigin,
  llmRequests,
  scriptLlm,
  waitForIdle,
  waitForStatus,
  webUrl,
} from "./support/helpers.ts";
import { refusingStructuredOutputs, researchScript, STRUCTURED_REFUSAL } from "./support/research-script.ts";
import { sessionHeaders, sharedApp } from "./support/session.ts";

const NEW_MODEL = "openai-compatible:scripted-researcher-2";

async function modelsBackToEnvironment(): Promise<void> {
  const r = await fetch(`${baseUrl()}/api/admin/settings`, {
    method: "PUT",
    headers: sessionHeaders(sharedApp(), { "content-type": "application/json", origin: baseUrl() }),
    body: JSON.stringify({
      models: { useEnvironment: true, roles: {} },
      providers: { openai: { useEnvironment: true } },
    }),
  });
  expect(r.status).toBe(200);
}

test.afterEach(modelsBackToEnvironment);

test("an admin changes the researcher model in the UI and the next run uses it", async ({ page }) => {
  test.setTimeout(120_000);
  await page.goto("/admin");
  await page.getByRole("link", { name: /^Settings/ }).click();
  await expect(page).toHaveURL(/\/admin\/settings$/);
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Settings");
  await expectAccessible(page, "settings page");

  const models = page.getByRole("region", { name: "Models" });
  await expect(models.getByTestId("effective-researcher")).toContainText("openai-compatible:scripted-model");
  await models.getByLabel("Set here").check();
  // Set here for the first time: the form starts from the environment's MODEL.
  await expect(models.getByLabel("Default model (every role without its own)")).toHaveValue(
    "openai-compatible:scripted-model",
  );
  await models.getByLabel("Researcher model").fill(NEW_MODEL);
  await models.getByRole("button", { name: "Save models" }).click();
  await expect(models.getByRole("status")).toContainText(
    `researcher model: openai-compatible:scripted-model → ${NEW_MODEL}`,
  );
  await expect(models.getByTestId("effective-researcher")).toContainText(NEW_MODEL);
  await expect(page.getByTestId("settings-changes")).toContainText(
    `researcher model: openai-compatible:scripted-model → ${NEW_MODEL}`,
  );

  // The provider test: one small call to the model a role uses with this provider, then one
  // structured output and one tool call with the run's own schemas.
  const plainCall: ScriptRule = {
    name: "provider-test",
    match: { user: "Reply with OK." },
    replies: [{ kind: "text", text: "OK" }],
    repeat: true,
  };
  const toolCall: ScriptRule = {
    name: "provider-test-tool",
    match: { tool: "think" },
    replies: [{ kind: "tool_calls", calls: [{ name: "think", arguments: { reflection: "testing" } }] }],
    repeat: true,
  };
  await scriptLlm([
    plainCall,
    {
      name: "provider-test-schema",
      match: { schema: "coverage_assessment" },
      replies: [
        {
          kind: "json",
          value: {
            overall_coverage: 0,
            directive_assessments: [],
            follow_up_queries: [],
            should_continue: false,
            rationale: "test",
          },
        },
      ],
      repeat: true,
    },
    toolCall,
  ]);
  const compatible = page.getByRole("region", { name: "OpenAI-compatible" });
  const result = compatible.getByTestId("test-result-openai-compatible");
  await expect(compatible.getByLabel("Model to test with")).toHaveValue("scripted-model");
  await compatible.getByRole("button", { name: "Test OpenAI-compatible" }).click();
  await expect(result).toHaveText(
    /^Works \(model scripted-model answered, and took a structured output and a tool call, in \d+ ms\)$/,
  );
  const probes = (await llmRequests()).map((r) => r.rule);
  expect(probes).toEqual(["provider-test", "provider-test-schema", "provider-test-tool"]);
  // A server that refuses structured outputs: the admin reads the refusal here, before a run falls back.
  await scriptLlm([plainCall, ...refusingStructuredOutputs(webUrl()), toolCall]);
  await compatible.getByRole("button", { name: "Test OpenAI-compatible" }).click();
  await expect(result).toHaveText(
    "Model scripted-model answers, but refused a structured output (the run's coverage_assessment schema): " +
      `runs will fall back. The provider answered HTTP 400. The provider said: ${STRUCTURED_REFUSAL.message}`,
  );
  // A call the server cannot answer: the failure in words, not a stack trace.
  await scriptLlm([]);
  await compatible.getByRole("button", { name: "Test OpenAI-compatible" }).click();
  await expect(compatible.getByTestId("test-result-openai-compatible")).toHaveText(
    /^The provider answered HTTP 500\./,
  );
  // A hosted provider's base URL (a proxy or gateway): a new address needs the key typed again, and
  // its Test never sends the saved key there.
  const openai = page.getByRole("region", { name: "OpenAI", exact: true });
  await openai.getByLabel("Set here").check();
  await expect(openai.getByLabel("Base URL")).toHaveAttribute("placeholder", "https://api.openai.com/v1");
  await openai.getByLabel("Base URL").fill(`${llmOrigin()}/v1`);
  await openai.getByLabel("API key").fill("sk-e2e-settings-0001");
  await openai.getByRole("button", { name: "Save openai" }).click();
  await expect(openai.getByRole("status")).toContainText(`OpenAI base URL: not set → ${llmOrigin()}/v1`);
  await openai.getByLabel("Base URL").fill("http://127.0.0.1:9/v1");
  await openai.getByLabel("Model to test with").fill("gpt-5.1");
  await openai.getByRole("button", { name: "Test OpenAI" }).click();
  await expect(openai.getByTestId("test-result-openai")).toHaveText(
    /^Type the API key to test a new base URL/,
  );
  await openai.getByRole("button", { name: "Save openai" }).click();
  await expect(openai.getByRole("alert")).toContainText("type the API key again to change the base URL");
  await expectAccessible(page, "settings page after saving");

  await waitForIdle(page.request);
  await scriptLlm(researchScript({ webUrl: webUrl() }));
  await page.goto("/");
  await page
    .getByLabel("Research question")
    .fill("Heat pump or gas boiler in a cold climate: which costs less?");
  await page.getByRole("button", { name: "Start research" }).click();
  await page.waitForURL(/\/runs\/[0-9a-f-]{36}$/);
  const id = page.url().split("/").at(-1)!;
  await waitForStatus(page.request, id, ["completed"], 90_000);

  await page.reload();
  await page.getByRole("tab", { name: "Usage" }).click();
  const row = page.getByRole("row", { name: new RegExp(`^${roleLabel(english, "researcher")}\\b`) });
  await expect(row).toContainText(NEW_MODEL);
  const asked = (await llmRequests()).map((r) => (r.body as { model?: string }).model);
  expect(asked).toContain("scripted-researcher-2");
  expect(asked).toContain("scripted-model");
});
