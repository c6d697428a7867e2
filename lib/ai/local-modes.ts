/**
 * What an `openai-compatible:` server lacks, learned from its errors. Older local servers refuse a
 * `json_schema` response format or the `tools` field; the call is then made again in a plainer
 * mode, and the model keeps that mode for the rest of the process (each model is asked once):
 *
 *   structured output: json_schema → json_object (schema in the prompt) → prompt (no response_format)
 *   tools:             native      → prompt (the tool protocol described in the prompt, the reply parsed)
 *
 * Recognised errors, by server (the scripted server in test/support/llm-server.ts answers with them):
 * - llama.cpp server builds before json_schema response formats (ggml-org/llama.cpp#9527, Sept 2024),
 *   HTTP 500: `response_format type must be one of "text" or "json_object", but got: json_schema`
 * - Ollama before 0.5.0, a schema where it expects "json" (ollama/ollama#7991), HTTP 400:
 *   `json: cannot unmarshal object into Go struct field ChatRequest.format of type string`
 * - Ollama 0.5.0–0.5.2 (ollama/ollama#8126), HTTP 400: `invalid format: expected "json" or a JSON schema`
 * - Ollama, a model whose template has no tools, HTTP 400:
 *   `registry.ollama.ai/library/gemma3:4b does not support tools`
 * - llama.cpp server started without --jinja, HTTP 500: `tools param requires --jinja flag`
 */
import { APICallError } from "ai";

export type StructuredMode = "json_schema" | "json_object" | "prompt";
export type ToolMode = "native" | "prompt";
export type LocalModes = { structured: StructuredMode; tools: ToolMode };

export const NATIVE_MODES: LocalModes = { structured: "json_schema", tools: "native" };

/** The feature a request used that the server said it lacks. */
export type LackingFeature = "structured" | "tools";

const SCHEMA_REFUSED: RegExp[] = [
  /response_format type must be one of/i,
  /cannot unmarshal object into Go struct field \w+\.format/i,
  /invalid format: expected "json" or a JSON schema/i,
  /(?:json_schema|response_format|structured outputs?)\b[^.\n]{0,60}\b(?:not supported|unsupported|is not available)/i,
];
const TOOLS_REFUSED: RegExp[] = [
  /does not support tools/i,
  /tools param requires --jinja/i,
  /\b(?:tools|tool calling|function calling)\b[^.\n]{0,40}\b(?:not supported|unsupported)/i,
];

function errorText(error: unknown): string {
  if (!APICallError.isInstance(error)) return "";
  return [error.message, error.responseBody ?? ""].join("\n");
}

/** Which feature the server refused, given what the request used; undefined for any other error. */
export function lackingFeature(
  error: unknown,
  used: { structured: boolean; tools: boolean },
): LackingFeature | undefined {
  const text = errorText(error);
  if (!text) return undefined;
  if (used.tools && TOOLS_REFUSED.some((p) => p.test(text))) return "tools";
  if (used.structured && SCHEMA_REFUSED.some((p) => p.test(text))) return "structured";
  return undefined;
}

/** The next plainer modes after `feature` was refused, or undefined when there is none left. */
export function downgrade(modes: LocalModes, feature: LackingFeature): LocalModes | undefined {
  if (feature === "tools") return modes.tools === "native" ? { ...modes, tools: "prompt" } : undefined;
  if (modes.structured === "json_schema") return { ...modes, structured: "json_object" };
  if (modes.structured === "json_object") return { ...modes, structured: "prompt" };
  return undefined;
}
