// Proves the scripted server through the real client stack (@ai-sdk/openai-compatible + ai),
// so app code tested against it sees exactly what a real OpenAI-compatible server would send.
import { createOpenAICompatible } from "@ai-sdk/openai-compatible";
import {
  APICallError,
  generateText,
  isStepCount,
  NoObjectGeneratedError,
  Output,
  streamText,
  tool,
} from "ai";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { z } from "zod";
import { type ScriptedLlm, startScriptedLlm } from "./llm-server.ts";

let llm: ScriptedLlm;
let model: ReturnType<ReturnType<typeof createOpenAICompatible>["chatModel"]>;

beforeAll(async () => {
  llm = await startScriptedLlm();
  const provider = createOpenAICompatible({
    name: "scripted",
    baseURL: llm.url,
    apiKey: "test",
    supportsStructuredOutputs: true,
    includeUsage: true,
  });
  model = provider.chatModel("m");
});

afterAll(async () => {
  await llm.close();
});

beforeEach(() => {
  llm.reset();
});

async function until(cond: () => boolean, timeoutMs = 5000) {
  const end = Date.now() + timeoutMs;
  while (!cond()) {
    if (Date.now() > end) throw new Error("condition not met in time");
    await new Promise((r) => setTimeout(r, 10));
  }
}

async function rejection(p: Promise<unknown>): Promise<unknown> {
  try {
    await p;
  } catch (err) {
    return err;
  }
  throw new Error("expected the promise to reject");
}

describe("scripted LLM server via @ai-sdk/openai-compatible", () => {
  it("answers a plain text reply with the request's model and usage", async () => {
    llm.setScript([
      {
        name: "hello",
        match: { user: "capital of France" },
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
    expect(result.response.modelId).toBe("m");
    expect(llm.requests).toHaveLength(1);
    const [req] = llm.requests;
    expect(req).toMatchObject({ rule: "hello", status: 200, stream: false, aborted: false });
    expect(req.body.messages[0]).toEqual({ role: "system", content: "Be terse." });
  });

  it("records a request as arriving when it arrives, before its body is read", async () => {
    const { request } = await import("node:http");
    const body = JSON.stringify({ model: "m", messages: [{ role: "user", content: "slow body" }] });
    let restSentAt = 0;
    await new Promise<void>((resolve, reject) => {
      const req = request(`${llm.url}/chat/completions`, {
        method: "POST",
        headers: { "content-type": "application/json", "content-length": Buffer.byteLength(body) },
      });
      req.on("response", (res) => res.resume().on("end", resolve));
      req.on("error", reject);
      // Part of the body, then the rest 400 ms later: the server has the request before its body.
      req.write(body.slice(0, 20));
      setTimeout(() => {
        restSentAt = Date.now();
        req.end(body.slice(20));
      }, 400);
    });
    const [rec] = llm.requests;
    expect(rec.body.messages[0].content).toBe("slow body");
    // Recorded before the rest of the body was even sent.
    expect(rec.at).toBeLessThan(restSentAt);
  });

  it("estimates usage as ceil(chars/4) when none is scripted", async () => {
    llm.setScript([{ replies: [{ kind: "text", text: "12345678" }] }]);
    const result = await generateText({ model, prompt: "abcdefghi" }); // 9 chars
    expect(result.usage.inputTokens).toBe(3);
    expect(result.usage.outputTokens).toBe(2);
  });

  it("streams text in several chunks", async () => {
    const text = "Heat pumps move heat rather than generating it, which is why their efficiency exceeds one.";
    llm.setScript([{ replies: [{ kind: "text", text }] }]);
    const result = streamText({ model, prompt: "Explain heat pumps" });
    const chunks: string[] = [];
    for await (const delta of result.textStream) chunks.push(delta);
    expect(chunks.length).toBeGreaterThan(3);
    expect(chunks.join("")).toBe(text);
    expect((await result.usage).outputTokens).toBe(Math.ceil(text.length / 4));
    expect(await result.finishReason).toBe("stop");
    expect(llm.requests[0]).toMatchObject({ stream: true, status: 200 });
    expect(llm.requests[0].body.stream_options).toEqual({ include_usage: true });
  });

  it("paces a streamed reply with chunkDelayMs: the reader sees part of the text before the rest", async () => {
    const text = "Heat pumps move heat rather than generating it, which is why their efficiency exceeds one.";
    llm.setScript([{ replies: [{ kind: "text", text, chunkDelayMs: 40 }] }]);
    const result = streamText({ model, prompt: "Explain heat pumps" });
    const seen: string[] = [];
    let done = false;
    const reading = (async () => {
      for await (const delta of result.textStream) seen.push(delta);
      done = true;
    })();
    // Part of the text has arrived while the stream is still open.
    await expect.poll(() => seen.length).toBeGreaterThan(0);
    expect(done).toBe(false);
    await reading;
    expect(seen.join("")).toBe(text);
  });

  it("drives a tool call: the tool executes with parsed args and the loop continues", async () => {
    const calls: unknown[] = [];
    llm.setScript([
      {
        name: "researcher",
        match: { tool: "web_search" },
        replies: [
          {
            kind: "tool_calls",
            calls: [{ name: "web_search", arguments: { query: "heat pump COP" }, id: "call_1" }],
          },
          { kind: "text", text: "Typical COP is 3 to 4." },
        ],
      },
    ]);
    const result = await generateText({
      model,
      prompt: "Research heat pump efficiency",
      tools: {
        web_search: tool({
          description: "Search the web",
          inputSchema: z.object({ query: z.string() }),
          execute: async (input) => {
            calls.push(input);
            return { results: ["COP 3-4 at 7 °C"] };
          },
        }),
      },
      stopWhen: isStepCount(3),
    });
    expect(calls).toEqual([{ query: "heat pump COP" }]);
    expect(result.text).toBe("Typical COP is 3 to 4.");
    expect(result.steps).toHaveLength(2);
    expect(result.steps[0].finishReason).toBe("tool-calls");
    expect(llm.requests).toHaveLength(2);
    expect(llm.requests[0].body.tools[0].function.name).toBe("web_search");
    // The second request carries the tool result back to the model.
    const toolMsg = llm.requests[1].body.messages.find((m: { role: string }) => m.role === "tool");
    expect(toolMsg.tool_call_id).toBe("call_1");
    expect(toolMsg.content).toContain("COP 3-4");
  });

  it("streams tool calls as id/name delta plus argument fragments", async () => {
    const seen: unknown[] = [];
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
      tools: {
        think: tool({
          inputSchema: z.object({ thought: z.string() }),
          execute: async (i) => {
            seen.push(i);
            return "ok";
          },
        }),
        web_search: tool({
          inputSchema: z.object({ query: z.string() }),
          execute: async (i) => {
            seen.push(i);
            return "ok";
          },
        }),
      },
    });
    const toolCalls = await result.toolCalls;
    expect(toolCalls.map((c) => [c.toolName, c.input])).toEqual([
      ["think", { thought: "compare running costs first" }],
      ["web_search", { query: "gas boiler efficiency" }],
    ]);
    expect(await result.finishReason).toBe("tool-calls");
    expect(seen).toHaveLength(2);
  });

  it("returns json_schema structured output parsed into the zod object", async () => {
    llm.setScript([
      {
        match: { schema: "research_plan" },
        replies: [{ kind: "json", value: { topics: ["efficiency", "costs"], simple: false } }],
      },
    ]);
    const result = await generateText({
      model,
      prompt: "Plan research on heat pumps vs gas boilers",
      output: Output.object({
        name: "research_plan",
        schema: z.object({ topics: z.array(z.string()), simple: z.boolean() }),
      }),
    });
    expect(result.output).toEqual({ topics: ["efficiency", "costs"], simple: false });
    const rf = llm.requests[0].body.response_format;
    expect(rf.type).toBe("json_schema");
    expect(rf.json_schema.name).toBe("research_plan");
    expect(rf.json_schema.schema.properties.topics.type).toBe("array");
  });

  it("malformed JSON content makes structured output fail to parse", async () => {
    llm.setScript([{ replies: [{ kind: "raw", content: '{"topics": ["efficiency", ' }] }]);
    const err = await rejection(
      (async () => {
        const result = await generateText({
          model,
          prompt: "plan",
          maxRetries: 0,
          output: Output.object({ schema: z.object({ topics: z.array(z.string()) }) }),
        });
        return result.output;
      })(),
    );
    expect(NoObjectGeneratedError.isInstance(err)).toBe(true);
    expect((err as NoObjectGeneratedError).text).toBe('{"topics": ["efficiency", ');
  });

  it("an injected 429 surfaces as APICallError with status and retry-after", async () => {
    llm.setScript([{ replies: [{ kind: "error", status: 429, headers: { "retry-after": "2" } }] }]);
    const err = await rejection(generateText({ model, prompt: "hi", maxRetries: 0 }));
    expect(APICallError.isInstance(err)).toBe(true);
    const e = err as APICallError;
    expect(e.statusCode).toBe(429);
    expect(e.isRetryable).toBe(true);
    expect(e.responseHeaders?.["retry-after"]).toBe("2");
    expect(e.message).toContain("Rate limit reached");
    expect(llm.requests[0].status).toBe(429);
  });

  it("a scripted 500 is retried by the client and then succeeds", async () => {
    llm.setScript([
      {
        replies: [
          { kind: "error", status: 500, headers: { "retry-after-ms": "10" } },
          { kind: "text", text: "recovered" },
        ],
      },
    ]);
    const result = await generateText({ model, prompt: "hi", maxRetries: 1 });
    expect(result.text).toBe("recovered");
    expect(llm.requests.map((r) => r.status)).toEqual([500, 200]);
  });

  it("a 500 with a custom body surfaces as APICallError", async () => {
    llm.setScript([
      {
        replies: [
          { kind: "error", status: 503, body: { error: { message: "overloaded", type: "server_error" } } },
        ],
      },
    ]);
    const err = await rejection(generateText({ model, prompt: "hi", maxRetries: 0 }));
    expect(APICallError.isInstance(err)).toBe(true);
    expect((err as APICallError).statusCode).toBe(503);
    expect((err as APICallError).message).toBe("overloaded");
  });

  it("context_length returns 400 with code context_length_exceeded and OpenAI's wording", async () => {
    llm.setScript([{ replies: [{ kind: "context_length" }] }]);
    const err = await rejection(generateText({ model, prompt: "a very long prompt", maxRetries: 0 }));
    expect(APICallError.isInstance(err)).toBe(true);
    const e = err as APICallError;
    expect(e.statusCode).toBe(400);
    expect(e.isRetryable).toBe(false);
    expect(e.message).toContain("maximum context length is 8192 tokens");
    const body = JSON.parse(e.responseBody ?? "{}");
    expect(body.error).toMatchObject({
      code: "context_length_exceeded",
      type: "invalid_request_error",
      param: "messages",
    });
  });

  it("a hang is aborted by the client's AbortSignal and recorded as aborted", async () => {
    llm.setScript([{ name: "stuck", replies: [{ kind: "hang" }] }]);
    const ac = new AbortController();
    const pending = generateText({ model, prompt: "hi", maxRetries: 0, abortSignal: ac.signal });
    await until(() => llm.requests.length === 1);
    expect(llm.requests[0]).toMatchObject({ rule: "stuck", aborted: false, status: 0 });
    ac.abort();
    const err = await rejection(pending);
    expect((err as Error).name).toMatch(/Abort/);
    await until(() => llm.requests[0].aborted);
    expect(llm.requests[0].aborted).toBe(true);
  });

  it("delayMs delays the reply and is abortable", async () => {
    llm.setScript([{ replies: [{ kind: "text", text: "late", delayMs: 150 }] }]);
    const t0 = Date.now();
    expect((await generateText({ model, prompt: "a" })).text).toBe("late");
    expect(Date.now() - t0).toBeGreaterThanOrEqual(140);

    llm.setScript([{ replies: [{ kind: "text", text: "never", delayMs: 10_000 }] }]);
    const pending = generateText({
      model,
      prompt: "b",
      maxRetries: 0,
      abortSignal: AbortSignal.timeout(100),
    });
    await rejection(pending);
    await until(() => llm.requests[1]?.aborted === true);
    expect(llm.requests[1].status).toBe(0);
  });

  it("unmatched requests get a 500 'no scripted reply' describing the request", async () => {
    llm.setScript([{ match: { user: "something else" }, replies: [{ kind: "text", text: "x" }] }]);
    const err = await rejection(
      generateText({ model, system: "You plan.", prompt: "Compare heat pumps", maxRetries: 0 }),
    );
    expect(APICallError.isInstance(err)).toBe(true);
    const e = err as APICallError;
    expect(e.statusCode).toBe(500);
    expect(e.message).toMatch(/^scripted-llm: no scripted reply/);
    expect(e.message).toContain('user="Compare heat pumps"');
    expect(e.message).toContain('system="You plan."');
    expect(llm.requests[0].status).toBe(500);
    expect(llm.requests[0].rule).toBeUndefined();
  });

  it("tries rules in order, skips exhausted ones, repeats the last reply when asked", async () => {
    llm.setScript([
      { name: "sys", match: { system: "SUPERVISOR", model: "m" }, replies: [{ kind: "text", text: "s1" }] },
      {
        name: "any",
        match: { any: "needle" },
        replies: [
          { kind: "text", text: "a1" },
          { kind: "text", text: "a2" },
        ],
        repeat: true,
      },
      { name: "fallback", replies: [{ kind: "text", text: "f" }] },
    ]);
    const ask = async (system: string, prompt: string) =>
      (await generateText({ model, system, prompt, maxRetries: 0 })).text;
    expect(await ask("SUPERVISOR role", "needle")).toBe("s1");
    expect(await ask("SUPERVISOR role", "needle")).toBe("a1"); // "sys" is exhausted
    expect(await ask("x", "needle")).toBe("a2");
    expect(await ask("x", "needle")).toBe("a2"); // repeat keeps the last
    expect(await ask("x", "hay")).toBe("f");
    expect(llm.requests.map((r) => r.rule)).toEqual(["sys", "any", "any", "any", "fallback"]);
    await expect(ask("x", "hay")).rejects.toThrow(/no scripted reply/);
  });

  it("serves GET /v1/models", async () => {
    const res = await fetch(`${llm.url}/models`);
    expect(res.status).toBe(200);
    const body = await res.json();
    expect(body.object).toBe("list");
    expect(body.data[0].id).toBeTypeOf("string");
  });
});

describe("HTTP control endpoints", () => {
  const control = (path: string, body?: unknown) =>
    fetch(`${llm.url.replace(/\/v1$/, "")}/__control/${path}`, {
      method: body === undefined ? "GET" : "POST",
      headers: { "content-type": "application/json" },
      body: body === undefined ? undefined : JSON.stringify(body),
    });

  it("scripts, appends, lists requests and resets over HTTP", async () => {
    let res = await control("script", {
      rules: [{ name: "remote", match: { user: "ping" }, replies: [{ kind: "text", text: "pong" }] }],
    });
    expect(res.status).toBe(200);
    res = await control("rules", {
      rules: [{ name: "appended", replies: [{ kind: "json", value: { ok: 1 } }] }],
    });
    expect(res.status).toBe(200);
    expect((await generateText({ model, prompt: "ping" })).text).toBe("pong");
    expect((await generateText({ model, prompt: "other" })).text).toBe('{"ok":1}');

    res = await control("requests");
    const { requests } = await res.json();
    expect(requests.map((r: { rule: string }) => r.rule)).toEqual(["remote", "appended"]);
    expect(requests[0].body.messages.at(-1).content).toBe("ping");

    expect((await control("reset", {})).status).toBe(200);
    expect(llm.requests).toHaveLength(0);
    await expect(generateText({ model, prompt: "ping", maxRetries: 0 })).rejects.toThrow(/no scripted reply/);
  });

  it("rejects invalid control bodies with 400", async () => {
    const bad = await control("script", { rules: [{ replies: [{ kind: "txt", text: "x" }] }] });
    expect(bad.status).toBe(400);
    expect((await bad.json()).error.message).toContain("replies");
    expect((await control("rules", { rules: [{ replies: [] }] })).status).toBe(400);
    const notJson = await fetch(`${llm.url.replace(/\/v1$/, "")}/__control/script`, {
      method: "POST",
      body: "{",
    });
    expect(notJson.status).toBe(400);
  });
});
