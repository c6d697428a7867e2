/**
 * Proves the e2e rig the app is tested against: the scripted OpenAI-compatible server answers the
 * real AI SDK client (plain, streamed, tool call, json_schema) and injects faults that the client
 * sees as such; the web fixture answers SearXNG-shaped searches over its pages.
 */
import { createOpenAICompatible } from "@ai-sdk/openai-compatible";
import { expect, test } from "@playwright/test";
import { APICallError, generateText, isStepCount, Output, streamText, tool } from "ai";
import { z } from "zod";

const llmUrl = () => process.env.E2E_LLM_URL!;
const control = (path: string, body?: unknown) =>
  fetch(`${new URL(llmUrl()).origin}/__control/${path}`, {
    method: body === undefined ? "GET" : "POST",
    headers: { "content-type": "application/json" },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
const model = () =>
  createOpenAICompatible({
    name: "scripted",
    baseURL: llmUrl(),
    apiKey: "k",
    supportsStructuredOutputs: true,
  })("rig-model");

test.beforeEach(async () => {
  expect((await control("reset", {})).status).toBe(200);
});

test("plain, streamed, tool-call and json_schema replies through @ai-sdk/openai-compatible", async () => {
  await control("script", {
    rules: [
      { match: { user: "plain" }, replies: [{ kind: "text", text: "plain answer" }] },
      {
        match: { user: "stream" },
        replies: [{ kind: "text", text: "one two three four five six seven eight" }],
      },
      {
        match: { tool: "lookup" },
        replies: [{ kind: "tool_calls", calls: [{ name: "lookup", arguments: { term: "COP" } }] }],
      },
      { match: { schema: "verdict" }, replies: [{ kind: "json", value: { verdict: "PASS", score: 3 } }] },
    ],
  });
  const plain = await generateText({ model: model(), prompt: "plain please", maxRetries: 0 });
  expect(plain.text).toBe("plain answer");

  const streamed = streamText({ model: model(), prompt: "stream please", maxRetries: 0 });
  const chunks: string[] = [];
  for await (const delta of streamed.textStream) chunks.push(delta);
  expect(chunks.length).toBeGreaterThan(1);
  expect(chunks.join("")).toBe("one two three four five six seven eight");

  const seen: string[] = [];
  await generateText({
    model: model(),
    prompt: "use the tool",
    tools: {
      lookup: tool({
        inputSchema: z.object({ term: z.string() }),
        execute: async ({ term }) => {
          seen.push(term);
          return "ok";
        },
      }),
    },
    stopWhen: isStepCount(1),
    maxRetries: 0,
  });
  expect(seen).toEqual(["COP"]);

  const structured = await generateText({
    model: model(),
    prompt: "judge it",
    output: Output.object({
      name: "verdict",
      schema: z.object({ verdict: z.enum(["PASS", "ISSUE"]), score: z.number() }),
    }),
    maxRetries: 0,
  });
  expect(structured.output).toEqual({ verdict: "PASS", score: 3 });
  const requests = (await (await control("requests")).json()).requests;
  expect(requests.at(-1).body.response_format.type).toBe("json_schema");
});

test("an injected 429 reaches the client as a 429 APICallError", async () => {
  await control("script", {
    rules: [{ replies: [{ kind: "error", status: 429, headers: { "retry-after": "1" } }] }],
  });
  const err = await generateText({ model: model(), prompt: "anything", maxRetries: 0 }).catch((e) => e);
  expect(APICallError.isInstance(err)).toBe(true);
  expect((err as APICallError).statusCode).toBe(429);
});

test("the web fixture answers SearXNG-shaped JSON searches over its pages", async () => {
  const web = process.env.E2E_WEB_URL!;
  const r = await fetch(`${web}/search?q=${encodeURIComponent("heat pump cold climate")}&format=json`);
  expect(r.status).toBe(200);
  const body = await r.json();
  expect(body.results.length).toBeGreaterThan(0);
  expect(body.results[0].url).toMatch(new RegExp(`^${web}/pages/`));
  const page = await fetch(body.results[0].url);
  expect(page.headers.get("content-type")).toMatch(/text\/html/);
  expect((await fetch(`${web}/search?q=x&format=html`)).status).toBe(403);
});
