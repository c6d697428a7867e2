/**
 * Local OpenAI-compatible servers lacking a feature, answered the way each one does, for the
 * chat-completions format only: requests for a model whose name contains `model` that use a
 * feature in `lacks` get that server's error (see localServerRefusal).
 */
import { z } from "zod";
import type { Body, WireError } from "./wire.ts";

export interface ServerEmulation {
  model: string;
  server: "ollama" | "llama.cpp";
  lacks: ("json_schema" | "tools")[];
}

export const emulationSchema = z.strictObject({
  model: z.string().min(1),
  server: z.enum(["ollama", "llama.cpp"]),
  lacks: z.array(z.enum(["json_schema", "tools"])).min(1),
});
export const emulateBodySchema = z.strictObject({ servers: z.array(emulationSchema) });

/**
 * The error a local server answers a feature it lacks with, in its own words and shape:
 * - Ollama (OpenAI-compatible endpoint, errors as {error:{message,type,param,code}}), HTTP 400:
 *   a JSON schema where it expects "json", as Ollama before 0.5.0 (ollama/ollama#7991):
 *   `json: cannot unmarshal object into Go struct field ChatRequest.format of type string`;
 *   tools for a model whose template has none: `registry.ollama.ai/library/<model> does not support tools`.
 * - llama.cpp server (errors as {error:{code,message,type}}), HTTP 500: builds before json_schema
 *   response formats (ggml-org/llama.cpp#9527, Sept 2024): `response_format type must be one of
 *   "text" or "json_object", but got: json_schema`; started without --jinja: `tools param requires --jinja flag`.
 */
export function localServerRefusal(
  emulations: readonly ServerEmulation[],
  body: Body,
): WireError | undefined {
  const model = String(body?.model ?? "");
  const used = {
    json_schema: body?.response_format?.type === "json_schema",
    tools: Array.isArray(body?.tools) && body.tools.length > 0,
  };
  for (const e of emulations) {
    if (!model.includes(e.model)) continue;
    const lacking = e.lacks.find((f) => used[f]);
    if (!lacking) continue;
    if (e.server === "ollama") {
      const message =
        lacking === "tools"
          ? `registry.ollama.ai/library/${model} does not support tools`
          : "json: cannot unmarshal object into Go struct field ChatRequest.format of type string";
      return {
        status: 400,
        body: { error: { message, type: "invalid_request_error", param: null, code: null } },
      };
    }
    const message =
      lacking === "tools"
        ? "tools param requires --jinja flag"
        : 'response_format type must be one of "text" or "json_object", but got: json_schema';
    return { status: 500, body: { error: { code: 500, message, type: "server_error" } } };
  }
  return undefined;
}
