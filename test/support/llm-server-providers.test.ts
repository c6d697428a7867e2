// Proves the scripted server's OpenAI Responses, Anthropic Messages and Gemini wire formats through
// the real provider packages (@ai-sdk/openai, @ai-sdk/anthropic, @ai-sdk/google + ai): what the app
// sends through each package is accepted under that provider's rules, and what the server answers
// (text, streams, tool calls, structured outputs, usage, errors) is parsed as the real API's would be.
import { createAnthropic } from "@ai-sdk/anthropic";
import { createGoogle } from "@ai-sdk/google";
import { createOpenAI } from "@ai-sdk/openai";
import { APICallError, generateText, isStepCount, type LanguageModel, Output, streamText, tool } from "ai";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { z } from "zod";
import { isContextWindowError } from "../../lib/ai/context-errors.ts";
import { isRetryableError, retryAfterMs } from "../../lib/ai/retry.ts";
import { type ScriptedLlm, startScriptedLlm } from "./llm-server.ts";

let llm: ScriptedLlm;
const KEYS = { openai: "sk-test-openai", anthropic: "sk-ant-test", google: "g-test-key" };

const providers = {
  openai: {
    format: "openai-responses",
    model: (key = KEYS.openai) =>
      createOpenAI({ apiKey: key, baseURL: llm.baseUrls.openai }).responses("gpt-5.1"),
  },
  anthropic: {
    format: "anthropic",
    model: (key = KEYS.anthropic) =>
      createAnthropic({ apiKey: key, baseURL: llm.baseUrls.anthropic }).languageModel("claude-sonnet-4-5"),
  },
  google: {
    format: "google",
    model: (key = KEYS.google) =>
      createGoogle({ apiKey: key, baseURL: llm.baseUrls.google }).languageModel("gemini-2.5-flash"),
  },
} as const;

beforeAll(async () => {
  llm = await startScriptedLlm({ keys: KEYS });
});
afterAll(() => llm.close());
beforeEach(() => llm.reset());

async function rejection(p: Promise<unknown>): Promise<APICallError> {
  try {
    await p;
  } catch (err) {
    if (APICallError.isInstance(err)) return err;
    throw err;
  }
  throw new Error("expected the promise to reject");
}

/** Every request so far broke none of the provider's rules. */
const expectNoViolations = () => expect(llm.requests.flatMap((r) => r.violations)).toEqual([]);

const search = tool({
  description: "Search the web",
  inputSchema: z.object({ query: z.string() }),
  execute: async ({ query }) => ({ results: [`${query}: COP 3-4 at 7 °C`] }),
});

describe.each(Object.entries(providers))("%s through its own package", (_name, provider) => {
  let model: LanguageModel;
  beforeEach(() => {
    model = provider.model();
  });

  it("answers text with the request's model and usage, matched by system and user text", async () => {
    llm.setScript([
      {
        name: "hello",
        match: { system: "Be terse", user: "capital of France" },
        replies: [{ kind: "text", text: "Paris.", usage: { prompt_tokens: 11, completion_tokens: 2 } }],
      },
    ]);
    const result = await generateText({
      model,
      system: "Be terse.",
      prompt: "What is the capital of France?",
    });
    expect(result.text).toBe("Paris.");
    expect(result.finishReason).toBe("stop");
    expect(result.usage.inputTokens).toBe(11);
    expect(result.usage.outputTokens).toBe(2);
    expect(llm.requests).toHaveLength(1);
    expect(llm.requests[0]).toMatchObject({
      rule: "hello",
      status: 200,
      format: provider.format,
      stream: false,
    });
    expect(llm.requests[0].model).toMatch(/gpt-5.1|claude-sonnet-4-5|gemini-2.5-flash/);
    expectNoViolations();
  });

  it("streams text in several chunks, with usage", async () => {
    const text = "Heat pumps move heat rather than generating it, which is why their efficiency exceeds one.";
    llm.setScript([
      { replies: [{ kind: "text", text, usage: { prompt_tokens: 7, completion_tokens: 20 } }] },
    ]);
    const result = streamText({ model, prompt: "Explain heat pumps" });
    const chunks: string[] = [];
    for await (const delta of result.textStream) chunks.push(delta);
    expect(chunks.length).toBeGreaterThan(3);
    expect(chunks.join("")).toBe(text);
    expect((await result.usage).outputTokens).toBe(20);
    expect(llm.requests[0].stream).toBe(true);
    expectNoViolations();
  });

  it("drives a tool loop: the call, its result sent back within the rules, then the answer", async () => {
    llm.setScript([
      {
        name: "researcher",
        match: { tool: "web_search" },
        replies: [
          {
            kind: "tool_calls",
            text: "Let me search.",
            calls: [{ name: "web_search", arguments: { query: "heat pump COP" } }],
          },
          { kind: "text", text: "Typical COP is 3 to 4." },
        ],
      },
    ]);
    const result = await generateText({
      model,
      prompt: "Research heat pump efficiency",
      tools: { web_search: search },
      stopWhen: isStepCount(3),
    });
    expect(result.steps[0].finishReason).toBe("tool-calls");
    expect(result.steps[0].toolCalls.map((c) => [c.toolName, c.input])).toEqual([
      ["web_search", { query: "heat pump COP" }],
    ]);
    expect(result.text).toBe("Typical COP is 3 to 4.");
    expect(llm.requests.map((r) => r.tools)).toEqual([["web_search"], ["web_search"]]);
    // The second request carries the tool's result back, in the shape the provider demands.
    expect(JSON.stringify(llm.requests[1].body)).toContain("COP 3-4 at 7");
    expect(llm.requests.map((r) => r.status)).toEqual([200, 200]);
    expectNoViolations();
  });

  it("streams tool calls with their arguments", async () => {
    llm.setScript([
      {
        replies: [
          {
            kind: "tool_calls",
            calls: [
              { name: "think", arguments: { thought: "compare running costs first" } },
              { name: "web_search", arguments: { query: "gas boiler efficiency" } },
            ],
          },
        ],
      },
    ]);
    const result = streamText({
      model,
      prompt: "go",
      tools: { think: tool({ inputSchema: z.object({ thought: z.string() }) }), web_search: search },
    });
    const calls = await result.toolCalls;
    expect(calls.map((c) => [c.toolName, c.input])).toEqual([
      ["think", { thought: "compare running costs first" }],
      ["web_search", { query: "gas boiler efficiency" }],
    ]);
    expect(await result.finishReason).toBe("tool-calls");
    expectNoViolations();
  });

  it("answers a structured output matched by its schema name, parsed into the zod object", async () => {
    llm.setScript([
      {
        match: { schema: "research_plan" },
        replies: [{ kind: "json", value: { topics: ["efficiency", "costs"], simple: false } }],
      },
    ]);
    const schema = z
      .object({ topics: z.array(z.string()), simple: z.boolean() })
      .meta({ title: "research_plan" });
    const result = await generateText({
      model,
      prompt: "Plan research on heat pumps vs gas boilers",
      output: Output.object({ name: "research_plan", schema }),
    });
    expect(result.output).toEqual({ topics: ["efficiency", "costs"], simple: false });
    expect(llm.requests[0].schemaName).toBe("research_plan");
    expectNoViolations();
  });

  it("refuses a schema outside the provider's subset with its own 400, and logs the violation", async () => {
    llm.setScript([{ replies: [{ kind: "json", value: { topic: "x", score: 2 } }] }]);
    const schema = z.object({ topic: z.string().min(1).max(80), score: z.number().int() });
    // @ai-sdk/anthropic strips what Anthropic's structured outputs refuse, but not from strict tools.
    const call =
      provider.format === "anthropic"
        ? generateText({
            model,
            prompt: "plan",
            maxRetries: 0,
            tools: { plan: tool({ inputSchema: schema, strict: true }) },
          })
        : generateText({
            model,
            prompt: "plan",
            maxRetries: 0,
            output: Output.object({ name: "plan", schema }),
          });
    const err = await rejection(call);
    expect(err.statusCode).toBe(400);
    expect(err.isRetryable).toBe(false);
    expect(err.message).toMatch(/minLength|maxLength|minimum/);
    expect(llm.requests[0].status).toBe(400);
    expect(llm.requests[0].violations.join("\n")).toMatch(/minLength/);
  });

  it("a 429 carries the provider's wait hint; a 500 is retryable and retried", async () => {
    llm.setScript([{ replies: [{ kind: "error", status: 429 }] }]);
    const limited = await rejection(generateText({ model, prompt: "hi", maxRetries: 0 }));
    expect(limited.statusCode).toBe(429);
    expect(isRetryableError(limited)).toBe(true);
    expect(retryAfterMs(limited)).toBe(1000);

    llm.setScript([
      {
        replies: [
          { kind: "error", status: 500, headers: { "retry-after-ms": "5" } },
          { kind: "text", text: "ok" },
        ],
      },
    ]);
    llm.requests.length = 0;
    expect((await generateText({ model, prompt: "hi", maxRetries: 1 })).text).toBe("ok");
    expect(llm.requests.map((r) => r.status)).toEqual([500, 200]);
  });

  it("a context overflow is the provider's own error, recognised as one", async () => {
    llm.setScript([{ replies: [{ kind: "context_length" }] }]);
    const err = await rejection(generateText({ model, prompt: "a very long prompt", maxRetries: 0 }));
    expect(err.statusCode).toBe(400);
    expect(isContextWindowError(err)).toBe(true);
  });

  it("a wrong key gets the provider's 401 (or Google's 400), not counted as a broken rule", async () => {
    llm.setScript([{ replies: [{ kind: "text", text: "never" }] }]);
    const err = await rejection(
      generateText({ model: provider.model("wrong-key"), prompt: "hi", maxRetries: 0 }),
    );
    expect([400, 401]).toContain(err.statusCode);
    expect(err.message).toMatch(/key/i);
    expect(llm.requests[0].violations).toEqual([]);
    expect(llm.requests[0].rule).toBeUndefined();
  });
});

describe("OpenAI Responses API state", () => {
  it("resolves the stored items a later request references, and refuses an unknown one with 404", async () => {
    // A model that does not reason: the SDK refers to its earlier text by the stored item's id.
    const model = createOpenAI({ apiKey: KEYS.openai, baseURL: llm.baseUrls.openai }).responses("gpt-4.1");
    llm.setScript([
      {
        match: { tool: "web_search" },
        replies: [
          {
            kind: "tool_calls",
            text: "Searching first.",
            calls: [{ name: "web_search", arguments: { query: "q" } }],
          },
          { kind: "text", text: "done" },
        ],
      },
    ]);
    await generateText({ model, prompt: "go", tools: { web_search: search }, stopWhen: isStepCount(3) });
    const input = llm.requests[1].body.input as { type?: string }[];
    expect(input.some((i) => i.type === "item_reference")).toBe(true);
    expectNoViolations();

    const res = await fetch(`${llm.baseUrls.openai}/responses`, {
      method: "POST",
      headers: { authorization: `Bearer ${KEYS.openai}`, "content-type": "application/json" },
      body: JSON.stringify({ model: "gpt-5.1", input: [{ type: "item_reference", id: "msg_unknown" }] }),
    });
    expect(res.status).toBe(404);
    expect((await res.json()).error.message).toBe("Item with id 'msg_unknown' not found.");
  });
});
