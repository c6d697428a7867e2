// Local servers that lack a feature, over HTTP through @ai-sdk/openai-compatible: the scripted
// server answers json_schema response formats and tools with Ollama's and llama.cpp's own errors
// (test/support/llm-server.ts, localServerRefusal); the call is made again in JSON or text mode,
// and the model keeps that mode for the process.
import { tool } from "ai";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { z } from "zod";
import { type ScriptedLlm, startScriptedLlm } from "../../test/support/llm-server.ts";
import { callText } from "./call.ts";
import { createModelRegistry } from "./registry.ts";
import { callObject } from "./structured.ts";
import { UsageMeter } from "./usage.ts";

let llm: ScriptedLlm;

beforeAll(async () => {
  llm = await startScriptedLlm();
});
afterAll(async () => {
  await llm?.close();
});
beforeEach(() => llm.reset());

function registryFor(model: string) {
  return createModelRegistry({
    env: { MODEL: `openai-compatible:${model}`, OPENAI_COMPATIBLE_BASE_URL: llm.url },
    settings: { timeoutMs: 5_000, retry: { baseDelayMs: 5, maxDelayMs: 20 } },
  });
}

const plan = z.object({ topics: z.array(z.string()), done: z.boolean() });

describe("structured output on a server without json_schema", () => {
  it.each([
    ["ollama", 400],
    ["llama.cpp", 500],
  ] as const)(
    "%s: asks again in JSON mode with the schema in the prompt, and stays there",
    async (server, status) => {
      const model = `old-${server}`;
      llm.emulate([{ model, server, lacks: ["json_schema"] }]);
      llm.setScript([
        {
          match: { schema: "plan" },
          replies: [{ kind: "json", value: { topics: ["a", "b"], done: true } }],
          repeat: true,
        },
      ]);
      const registry = registryFor(model);
      const meter = new UsageMeter();
      const ask = () =>
        callObject({ registry, meter }, "supervisor", {
          instructions: "Plan.",
          prompt: "go",
          schema: plan,
          schemaName: "plan",
        });

      await expect(ask()).resolves.toMatchObject({
        ok: true,
        value: { topics: ["a", "b"], done: true },
        repairs: 0,
      });
      const [refused, jsonMode] = llm.requests;
      expect(refused).toMatchObject({ status, rule: "local-server-refusal" });
      expect(refused.body.response_format.type).toBe("json_schema");
      // Not retried as a 500: the server's words say what it lacks.
      expect(llm.requests).toHaveLength(2);
      expect(jsonMode.status).toBe(200);
      expect(jsonMode.body.response_format).toEqual({ type: "json_object" });
      const system = jsonMode.body.messages[0];
      expect(system.role).toBe("system");
      expect(system.content).toContain('Reply with only a JSON object ("plan")');
      expect(system.content).toContain('"topics":{"type":"array"');

      // Remembered for the model: the next call goes straight to JSON mode.
      await expect(ask()).resolves.toMatchObject({ ok: true });
      expect(llm.requests).toHaveLength(3);
      expect(llm.requests[2].body.response_format).toEqual({ type: "json_object" });
      expect(registry.localModes(registry.spec("supervisor"))).toEqual({
        structured: "json_object",
        tools: "native",
      });
      // Usage counted once per answered call: the refusal cost nothing.
      expect(meter.total.calls).toBe(2);
    },
  );

  it("two calls refused at once step down one mode, not two", async () => {
    const model = "busy-old-ollama";
    llm.emulate([{ model, server: "ollama", lacks: ["json_schema"] }]);
    llm.setScript([
      {
        match: { schema: "plan" },
        replies: [{ kind: "json", value: { topics: [], done: true } }],
        repeat: true,
      },
    ]);
    const registry = registryFor(model);
    const ask = () =>
      callObject({ registry }, "supervisor", { prompt: "go", schema: plan, schemaName: "plan" });
    const both = await Promise.all([ask(), ask()]);
    expect(both.map((r) => r.ok)).toEqual([true, true]);
    expect(llm.requests.map((q) => q.body.response_format?.type)).toEqual([
      "json_schema",
      "json_schema",
      "json_object",
      "json_object",
    ]);
  });

  it("without any response format when json_object is refused too, reading the JSON out of the text", async () => {
    const model = "older-llama";
    llm.emulate([{ model, server: "llama.cpp", lacks: ["json_schema"] }]);
    llm.setScript([
      {
        name: "no-json-object",
        match: { model },
        replies: [
          {
            kind: "error",
            status: 500,
            body: {
              error: {
                code: 500,
                message: 'response_format type must be one of "text", but got: json_object',
                type: "server_error",
              },
            },
          },
          { kind: "text", text: 'Here it is:\n```json\n{"topics":["x"],"done":false}\n```' },
        ],
      },
    ]);
    const registry = registryFor(model);
    const r = await callObject({ registry }, "supervisor", {
      prompt: "go",
      schema: plan,
      schemaName: "plan",
    });
    expect(r).toMatchObject({ ok: true, value: { topics: ["x"], done: false } });
    expect(llm.requests.map((q) => q.body.response_format?.type ?? "none")).toEqual([
      "json_schema",
      "json_object",
      "none",
    ]);
  });
});

const tools = {
  web_search: tool({ description: "Search the web", inputSchema: z.object({ query: z.string() }) }),
  think: tool({ description: "Reflect", inputSchema: z.object({ reflection: z.string() }) }),
};

describe("tools on a server without tool calling", () => {
  it.each([
    ["ollama", 400],
    ["llama.cpp", 500],
  ] as const)(
    "%s: describes the tools in the prompt and reads the calls back from the reply",
    async (server, status) => {
      const model = `notools-${server}`;
      llm.emulate([{ model, server, lacks: ["tools"] }]);
      llm.setScript([
        {
          match: { model },
          replies: [
            {
              kind: "raw",
              content:
                '{"tool_calls": [{"name": "web_search", "arguments": {"query": "heat pumps"}}, {"name": "think", "arguments": {}}]}',
            },
            { kind: "text", text: "All done." },
          ],
        },
      ]);
      const registry = registryFor(model);
      const first = await callText({ registry }, "researcher", {
        instructions: "Research.",
        messages: [{ role: "user", content: "Heat pumps?" }],
        tools,
      });
      expect(llm.requests[0]).toMatchObject({ status, rule: "local-server-refusal" });
      const textMode = llm.requests[1].body;
      expect(textMode.tools).toBeUndefined();
      expect(textMode.messages[0].content).toContain("- web_search: Search the web");
      expect(first.finishReason).toBe("tool-calls");
      expect(first.toolCalls[0]).toMatchObject({ toolName: "web_search", input: { query: "heat pumps" } });
      // An input the tool's schema refuses is an invalid call, as the SDK reports one.
      expect(first.toolCalls[1]).toMatchObject({ toolName: "think", dynamic: true, invalid: true });

      // The conversation goes on in text: the calls and their results as plain messages.
      const messages = [
        { role: "user" as const, content: "Heat pumps?" },
        ...first.responseMessages,
        {
          role: "tool" as const,
          content: [
            {
              type: "tool-result" as const,
              toolCallId: first.toolCalls[0].toolCallId,
              toolName: "web_search",
              output: { type: "text" as const, value: "3 results about heat pumps" },
            },
          ],
        },
      ];
      const second = await callText({ registry }, "researcher", { messages, tools });
      expect(second).toMatchObject({ text: "All done.", toolCalls: [], finishReason: "stop" });
      expect(llm.requests).toHaveLength(3); // no refusal again: remembered
      const sent = llm.requests[2].body.messages as { role: string; content: string }[];
      expect(sent.map((m) => m.role)).toEqual(["system", "user", "assistant", "user"]);
      expect(sent[2].content).toContain('"name":"web_search"');
      expect(sent[3].content).toBe("Result of web_search: 3 results about heat pumps");
    },
  );
});
