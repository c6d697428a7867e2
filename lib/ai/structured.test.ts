import { describe, expect, it } from "vitest";
import { z } from "zod";
import { apiError, type ScriptStep, scriptedModel, textResult } from "../../test/support/ai-mocks.ts";
import { ContextWindowError } from "./context-errors.ts";
import { createModelRegistry } from "./registry.ts";
import { callObject, outputFor, StructuredOutputError } from "./structured.ts";
import { UsageMeter } from "./usage.ts";

const coverage = z.object({
  overall_coverage: z.number().min(0).max(1),
  should_continue: z.boolean(),
  follow_ups: z.array(z.string()),
});

function setup(steps: ScriptStep[]) {
  const model = scriptedModel(steps, { provider: "test", modelId: "m" });
  const registry = createModelRegistry({
    env: { MODEL: "test:m" },
    providerFactories: { test: () => model },
    settings: { retry: { baseDelayMs: 1 } },
    sleep: async () => {},
  });
  const meter = new UsageMeter();
  return { model, deps: { registry, meter }, meter };
}

const good = { overall_coverage: 0.8, should_continue: false, follow_ups: [] };

describe("callObject", () => {
  it("returns the typed object and asks for JSON", async () => {
    const { deps, model } = setup([textResult(JSON.stringify(good))]);
    const r = await callObject(deps, "supervisor", {
      prompt: "assess",
      schema: coverage,
      schemaName: "coverage",
    });
    expect(r).toMatchObject({ ok: true, value: good, attempts: 1, repairs: 0, model: "test:m" });
    expect(model.doGenerateCalls[0].responseFormat).toMatchObject({ type: "json", name: "coverage" });
    // The name is the schema's title too: Anthropic and Gemini have no field for it.
    const format = model.doGenerateCalls[0].responseFormat;
    expect(format?.type === "json" && format.schema?.title).toBe("coverage");
    expect(coverage.meta()?.title).toBeUndefined(); // the shared schema itself is left as it was
  });

  it("repairs malformed JSON by re-asking with the parse error and the bad answer", async () => {
    const { deps, model, meter } = setup([
      textResult("{not json", { input: 10, output: 3 }),
      textResult(JSON.stringify(good)),
    ]);
    const r = await callObject(deps, "supervisor", { prompt: "assess coverage", schema: coverage });
    expect(r).toMatchObject({ ok: true, value: good, attempts: 2, repairs: 1 });
    expect(model.doGenerateCalls).toHaveLength(2);
    const second = model.doGenerateCalls[1].prompt;
    const assistant = second.find((m) => m.role === "assistant");
    expect(JSON.stringify(assistant)).toContain("{not json");
    const lastUser = second.at(-1);
    expect(lastUser?.role).toBe("user");
    expect(JSON.stringify(lastUser)).toContain("could not be used");
    expect(JSON.stringify(lastUser)).toMatch(/JSON/);
    expect(JSON.stringify(second[0])).toContain("assess coverage");
    expect(meter.role("supervisor").calls).toBe(2); // the unusable answer was paid for too
  });

  it("quotes schema violations in the re-ask", async () => {
    const bad = { overall_coverage: 7, should_continue: "no", follow_ups: [] };
    const { deps, model } = setup([textResult(JSON.stringify(bad)), textResult(JSON.stringify(good))]);
    const r = await callObject(deps, "supervisor", { prompt: "assess", schema: coverage });
    expect(r.ok).toBe(true);
    const reask = JSON.stringify(model.doGenerateCalls[1].prompt.at(-1));
    expect(reask).toContain("overall_coverage");
    expect(reask).toContain("should_continue");
  });

  it("accepts JSON inside a code fence without a re-ask", async () => {
    const { deps, model } = setup([textResult(`Here it is:\n\`\`\`json\n${JSON.stringify(good)}\n\`\`\``)]);
    const r = await callObject(deps, "supervisor", { prompt: "assess", schema: coverage });
    expect(r).toMatchObject({ ok: true, value: good, repairs: 0 });
    expect(model.doGenerateCalls).toHaveLength(1);
  });

  it("gives a typed failure after two failed re-asks", async () => {
    const { deps, model } = setup([
      textResult("{nope"),
      textResult("still {nope"),
      textResult("[1,2]"),
      textResult("{}"),
    ]);
    const r = await callObject(deps, "supervisor", { prompt: "assess", schema: coverage });
    expect(r.ok).toBe(false);
    if (r.ok) return;
    expect(r.error).toBeInstanceOf(StructuredOutputError);
    expect(r.error).toMatchObject({ attempts: 3, lastText: "[1,2]", role: "supervisor", model: "test:m" });
    expect(r.error.message).toContain("no valid object after 3 answers");
    expect(model.doGenerateCalls).toHaveLength(3);
  });

  it("still retries transport errors and throws context-window errors", async () => {
    const limited = apiError({ status: 429, body: { error: { message: "Rate limit" } } });
    const ok = setup([limited, textResult(JSON.stringify(good))]);
    await expect(callObject(ok.deps, "supervisor", { prompt: "x", schema: coverage })).resolves.toMatchObject(
      { ok: true },
    );
    const overflow = apiError({
      status: 400,
      body: {
        error: {
          message: "This model's maximum context length is 8192 tokens.",
          code: "context_length_exceeded",
        },
      },
    });
    const ctx = setup([overflow]);
    await expect(
      callObject(ctx.deps, "supervisor", { prompt: "x", schema: coverage }),
    ).rejects.toBeInstanceOf(ContextWindowError);
  });
});

describe("structured outputs", () => {
  it("are made once per schema, name and description, so the schema is turned into JSON Schema once", async () => {
    const schema = z.object({ verdict: z.enum(["yes", "no"]) });
    const first = outputFor(schema, "verdict", "A verdict");
    expect(outputFor(schema, "verdict", "A verdict")).toBe(first);
    expect(outputFor(schema, "other", "A verdict")).not.toBe(first);
    expect(outputFor(z.object({ verdict: z.string() }), "verdict", "A verdict")).not.toBe(first);
    expect(await first.responseFormat).toMatchObject({ type: "json", name: "verdict" });
  });
});
