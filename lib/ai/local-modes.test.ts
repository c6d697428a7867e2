import { describe, expect, it } from "vitest";
import { apiError } from "../../test/support/ai-mocks.ts";
import { downgrade, lackingFeature, NATIVE_MODES } from "./local-modes.ts";

const ollama = (message: string) =>
  apiError({
    status: 400,
    body: { error: { message, type: "invalid_request_error", param: null, code: null } },
  });
const llamaCpp = (message: string) =>
  apiError({ status: 500, body: { error: { code: 500, message, type: "server_error" } } });
const both = { structured: true, tools: true };

describe("a local server's refusal of a feature", () => {
  it.each([
    [
      "Ollama before 0.5",
      ollama("json: cannot unmarshal object into Go struct field ChatRequest.format of type string"),
    ],
    ["Ollama 0.5.0-0.5.2", ollama('invalid format: expected "json" or a JSON schema')],
    [
      "llama.cpp before json_schema",
      llamaCpp('response_format type must be one of "text" or "json_object", but got: json_schema'),
    ],
  ])("recognises %s refusing json_schema", (_, error) => {
    expect(lackingFeature(error, both)).toBe("structured");
    expect(lackingFeature(error, { structured: false, tools: true })).toBeUndefined();
  });

  it.each([
    ["Ollama, a model without tools", ollama("registry.ollama.ai/library/gemma3:4b does not support tools")],
    ["llama.cpp without --jinja", llamaCpp("tools param requires --jinja flag")],
  ])("recognises %s refusing tools", (_, error) => {
    expect(lackingFeature(error, both)).toBe("tools");
    expect(lackingFeature(error, { structured: true, tools: false })).toBeUndefined();
  });

  it("leaves other errors to retries and failover", () => {
    expect(lackingFeature(ollama('model "llama9" not found, try pulling it first'), both)).toBeUndefined();
    expect(lackingFeature(llamaCpp("the request exceeds the available context size"), both)).toBeUndefined();
    expect(lackingFeature(ollama("Invalid value for 'temperature'"), both)).toBeUndefined();
    expect(lackingFeature(new Error("does not support tools"), both)).toBeUndefined(); // not a provider answer
  });

  it("steps down one mode at a time, and says when none is left", () => {
    const once = downgrade(NATIVE_MODES, "structured");
    expect(once).toEqual({ structured: "json_object", tools: "native" });
    const twice = downgrade(once!, "structured");
    expect(twice).toEqual({ structured: "prompt", tools: "native" });
    expect(downgrade(twice!, "structured")).toBeUndefined();
    expect(downgrade(NATIVE_MODES, "tools")).toEqual({ structured: "json_schema", tools: "prompt" });
    expect(downgrade({ structured: "json_schema", tools: "prompt" }, "tools")).toBeUndefined();
  });
});
