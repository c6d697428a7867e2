// Drives the registry end to end over HTTP against the scripted OpenAI-compatible server:
// real provider package, real error bodies, real Retry-After headers.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { z } from "zod";
import { type ScriptedLlm, startScriptedLlm } from "../../test/support/llm-server.ts";
import { callText } from "./call.ts";
import { ContextWindowError } from "./context-errors.ts";
import { createModelRegistry, type ModelRegistry } from "./registry.ts";
import { callObject } from "./structured.ts";
import { UsageMeter } from "./usage.ts";

let llm: ScriptedLlm;
let registry: ModelRegistry;

beforeAll(async () => {
  llm = await startScriptedLlm();
  registry = createModelRegistry({
    env: { MODEL: "openai-compatible:test-model", OPENAI_COMPATIBLE_BASE_URL: llm.url },
    settings: { timeoutMs: 5_000, retry: { baseDelayMs: 5, maxDelayMs: 20 } },
  });
});

afterAll(async () => {
  await llm?.close();
});

beforeEach(() => llm.reset());

describe("registry against the scripted OpenAI-compatible server", () => {
  it("completes after two 429s", async () => {
    llm.setScript([
      {
        replies: [
          { kind: "error", status: 429, headers: { "retry-after": "0" } },
          { kind: "error", status: 429, headers: { "retry-after-ms": "10" } },
          { kind: "text", text: "hi", usage: { prompt_tokens: 12, completion_tokens: 2 } },
        ],
      },
    ]);
    const meter = new UsageMeter();
    const r = await callText({ registry, meter }, "researcher", { prompt: "say hi" });
    expect(r).toMatchObject({ text: "hi", attempts: 3, model: "openai-compatible:test-model" });
    expect(llm.requests.map((q) => q.status)).toEqual([429, 429, 200]);
    expect(llm.requests.every((q) => q.body.model === "test-model")).toBe(true);
    expect(meter.role("researcher")).toMatchObject({ inputTokens: 12, outputTokens: 2, calls: 1 });
  });

  it("repairs a malformed JSON object with a re-ask", async () => {
    const schema = z.object({ topic: z.string(), priority: z.enum(["critical", "normal", "low"]) });
    llm.setScript([
      {
        match: { schema: "directive" },
        replies: [
          { kind: "raw", content: '{"topic": "battery recycling", "priority": ' },
          { kind: "json", value: { topic: "battery recycling", priority: "normal" } },
        ],
      },
    ]);
    const r = await callObject({ registry }, "supervisor", {
      prompt: "Plan the research on battery recycling",
      schema,
      schemaName: "directive",
    });
    expect(r).toMatchObject({
      ok: true,
      value: { topic: "battery recycling", priority: "normal" },
      repairs: 1,
    });
    expect(llm.requests).toHaveLength(2);
    const first = llm.requests[0].body;
    expect(first.response_format).toMatchObject({ type: "json_schema", json_schema: { name: "directive" } });
    const repairMessages = llm.requests[1].body.messages as Array<{ role: string; content: unknown }>;
    expect(repairMessages.map((m) => m.role)).toEqual(["user", "assistant", "user"]);
    expect(JSON.stringify(repairMessages[1].content)).toContain('\\"priority\\": ');
    expect(JSON.stringify(repairMessages[2].content)).toContain("could not be used");
  });

  it("classifies the server's context-length error and does not retry it", async () => {
    llm.setScript([{ replies: [{ kind: "context_length" }, { kind: "text", text: "unreachable" }] }]);
    const err = await callText({ registry }, "compression", { prompt: "very long" }).catch((e) => e);
    expect(err).toBeInstanceOf(ContextWindowError);
    expect(err).toMatchObject({ limitTokens: 8192, requestedTokens: 9000, statusCode: 400 });
    expect(llm.requests).toHaveLength(1);
  });

  it("streams deltas and counts streamed usage", async () => {
    llm.setScript([
      {
        replies: [
          {
            kind: "text",
            text: "one two three four five six seven",
            usage: { prompt_tokens: 30, completion_tokens: 7 },
          },
        ],
      },
    ]);
    const meter = new UsageMeter();
    const deltas: string[] = [];
    const r = await callText({ registry, meter }, "synthesis", {
      prompt: "write",
      onTextDelta: (d) => deltas.push(d),
    });
    expect(deltas.length).toBeGreaterThan(1);
    expect(deltas.join("")).toBe("one two three four five six seven");
    expect(r.text).toBe("one two three four five six seven");
    expect(llm.requests[0].stream).toBe(true);
    expect(meter.role("synthesis")).toMatchObject({ inputTokens: 30, outputTokens: 7 });
  });

  it("cancelling aborts the in-flight HTTP request", async () => {
    llm.setScript([{ replies: [{ kind: "hang" }] }]);
    const controller = new AbortController();
    const p = callText({ registry, signal: controller.signal }, "researcher", { prompt: "wait" });
    while (llm.requests.length === 0) await new Promise((r) => setTimeout(r, 5));
    controller.abort();
    await expect(p).rejects.toMatchObject({ name: "AbortError" });
    for (let i = 0; i < 100 && !llm.requests[0].aborted; i++) await new Promise((r) => setTimeout(r, 5));
    expect(llm.requests[0].aborted).toBe(true);
  });
});
