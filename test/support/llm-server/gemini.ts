/**
 * The Gemini API (`POST /v1beta/models/{model}:generateContent` and
 * `:streamGenerateContent?alt=sse`), as `@ai-sdk/google` speaks it, with the request rules Google
 * documents and enforces (sources, read 2026-05):
 * - https://ai.google.dev/api/generate-content (request body, `contents` with roles user/model,
 *   non-empty parts, one data field per part, `generationConfig`, streaming as SSE with `alt=sse`)
 * - https://ai.google.dev/gemini-api/docs/api-key (the `x-goog-api-key` header or `key` parameter)
 * - https://ai.google.dev/gemini-api/docs/function-calling (function names; a function response
 *   turn right after its function call turn, one response per call)
 * - https://ai.google.dev/gemini-api/docs/structured-output (`responseJsonSchema` needs
 *   `responseMimeType: application/json`; the schema subset: schema-rules.ts)
 * - https://ai.google.dev/gemini-api/docs/troubleshooting (error statuses and bodies)
 */
import { schemaProblems } from "./schema-rules.ts";
import { type Answer, parsedArguments, randomId, splitWords, type WireRequest } from "./script.ts";
import {
  type Body,
  type Frame,
  headerValue,
  type IncomingCall,
  type Refusal,
  type Wire,
  type WireError,
} from "./wire.ts";

const STATUS: Record<number, string> = {
  400: "INVALID_ARGUMENT",
  401: "UNAUTHENTICATED",
  403: "PERMISSION_DENIED",
  404: "NOT_FOUND",
  429: "RESOURCE_EXHAUSTED",
  500: "INTERNAL",
  503: "UNAVAILABLE",
  504: "DEADLINE_EXCEEDED",
};

const DEFAULT_MESSAGES: Record<number, string> = {
  401: "Request had invalid authentication credentials. Expected OAuth 2 access token, login cookie or other valid authentication credential.",
  429: "You exceeded your current quota, please check your plan and billing details. For more information on this error, head to: https://ai.google.dev/gemini-api/docs/rate-limits.",
  500: "An internal error has occurred. Please retry or report in https://developers.generativeai.google/guide/troubleshooting",
  503: "The model is overloaded. Please try again later.",
};

export function geminiError(status: number, message?: string, details?: unknown[]): WireError {
  const retry =
    status === 429 ? [{ "@type": "type.googleapis.com/google.rpc.RetryInfo", retryDelay: "1s" }] : undefined;
  return {
    status,
    body: {
      error: {
        code: status,
        message: message ?? DEFAULT_MESSAGES[status] ?? `scripted-llm: injected error ${status}`,
        status: STATUS[status] ?? (status >= 500 ? "INTERNAL" : "FAILED_PRECONDITION"),
        ...((details ?? retry) ? { details: details ?? retry } : {}),
      },
    },
  };
}

const refuse = (message: string, status = 400): Refusal => ({ status, message, violation: true });
const at = (path: string, message: string) => refuse(`* GenerateContentRequest.${path}: ${message}`);

// Functions: a letter or underscore first, then letters, digits, `_`, `.`, `:` or `-`, at most 64.
const FUNCTION_NAME = /^[a-zA-Z_][a-zA-Z0-9_.:-]{0,63}$/;
const DATA_FIELDS = [
  "text",
  "inlineData",
  "fileData",
  "functionCall",
  "functionResponse",
  "executableCode",
  "codeExecutionResult",
];

const partsOf = (c: Body): Body[] => (Array.isArray(c?.parts) ? c.parts : []);
const textOf = (c: Body) =>
  partsOf(c)
    .filter((p) => typeof p?.text === "string" && p.thought !== true)
    .map((p) => p.text)
    .join("");
const declarations = (body: Body): Body[] =>
  (Array.isArray(body?.tools) ? body.tools : []).flatMap((t: Body) =>
    Array.isArray(t?.functionDeclarations) ? t.functionDeclarations : [],
  );

function contentProblems(contents: Body[]): Refusal[] {
  const out: Refusal[] = [];
  contents.forEach((c, i) => {
    if (c?.role !== undefined && c.role !== "user" && c.role !== "model")
      out.push(refuse("Please use a valid role: user, model."));
    const parts = partsOf(c);
    if (!parts.length) out.push(at(`contents[${i}].parts`, "contents.parts must not be empty."));
    parts.forEach((p, j) => {
      if (DATA_FIELDS.filter((f) => p?.[f] !== undefined).length !== 1)
        out.push(
          at(
            `contents[${i}].parts[${j}].data`,
            "required oneof field 'data' must have one initialized field",
          ),
        );
    });
    const calls = parts.filter((p) => p?.functionCall).length;
    const responses = parts.filter((p) => p?.functionResponse).length;
    const previous = contents[i - 1];
    const previousCalls = partsOf(previous).filter((p) => p?.functionCall).length;
    if (calls && c.role === "model" && i > 0 && previous?.role === "model")
      out.push(
        refuse(
          "Please ensure that function call turn comes immediately after a user turn or after a function response turn.",
        ),
      );
    if (responses && !previousCalls)
      out.push(
        refuse("Please ensure that function response turn comes immediately after a function call turn."),
      );
    else if (responses && responses !== previousCalls)
      out.push(
        refuse(
          "Please ensure that the number of function response parts is equal to the number of function call parts of the function call turn.",
        ),
      );
    if (previousCalls && previous?.role === "model" && !responses)
      out.push(
        refuse("Please ensure that function response turn comes immediately after a function call turn."),
      );
  });
  return out;
}

function configProblems(body: Body): Refusal[] {
  const config = body?.generationConfig ?? {};
  const out: Refusal[] = [];
  const schema = config.responseJsonSchema ?? config.responseSchema;
  if (config.responseJsonSchema !== undefined && config.responseSchema !== undefined)
    out.push(at("generation_config", "response_schema and response_json_schema cannot both be set."));
  if (schema !== undefined && config.responseMimeType !== "application/json")
    out.push(
      at(
        "generation_config.response_mime_type",
        "response_mime_type must be application/json when a response schema is set.",
      ),
    );
  if (config.responseJsonSchema !== undefined)
    for (const p of schemaProblems("google", "output", config.responseJsonSchema))
      out.push(at("generation_config.response_json_schema", p));
  if (config.temperature != null && !(config.temperature >= 0 && config.temperature <= 2))
    out.push(at("generation_config.temperature", "temperature must be between 0 and 2."));
  if (
    config.maxOutputTokens != null &&
    !(Number.isInteger(config.maxOutputTokens) && config.maxOutputTokens > 0)
  )
    out.push(at("generation_config.max_output_tokens", "max_output_tokens must be positive."));
  const validated = body?.toolConfig?.functionCallingConfig?.mode === "VALIDATED";
  declarations(body).forEach((d, i) => {
    if (typeof d?.name !== "string" || !FUNCTION_NAME.test(d.name))
      out.push(
        at(
          `tools[0].function_declarations[${i}].name`,
          "Invalid function name. Must start with a letter or an underscore. Must be alphameric (a-z, A-Z, 0-9), underscores (_), dots (.), colons (:), or dashes (-), with a maximum length of 64.",
        ),
      );
    if (d?.parametersJsonSchema !== undefined)
      for (const p of schemaProblems("google", validated ? "strict-tool" : "tool", d.parametersJsonSchema))
        out.push(at(`tools[0].function_declarations[${i}].parameters_json_schema`, p));
  });
  return out;
}

/** The function a JSON answer goes to when the request forces one (the SDK's JSON-tool fallback). */
function forcedJsonFunction(body: Body): string | undefined {
  const calling = body?.toolConfig?.functionCallingConfig;
  if (calling?.mode !== "ANY" || body?.generationConfig?.responseJsonSchema) return undefined;
  const names = declarations(body).map((d) => d?.name);
  return calling.allowedFunctionNames?.[0] ?? (names.includes("json") ? "json" : undefined);
}

export function createGeminiWire(opts: { apiKey?: string } = {}): Wire {
  const modelOf = (url: URL) => decodeURIComponent(url.pathname.match(/\/models\/([^/:]+):/)?.[1] ?? "");

  function check({ body, headers, url }: IncomingCall): Refusal[] {
    const key = headerValue(headers, "x-goog-api-key") ?? url.searchParams.get("key") ?? undefined;
    if (!key)
      return [
        refuse(
          "Method doesn't allow unregistered callers (callers without established identity). Please use API Key or other form of API consumer identity to call this API.",
          403,
        ),
      ];
    if (opts.apiKey !== undefined && key !== opts.apiKey)
      return [{ ...refuse("API key not valid. Please pass a valid API key."), violation: false }];
    const contents = body?.contents;
    if (!Array.isArray(contents) || !contents.length) return [at("contents", "contents is not specified")];
    return [...contentProblems(contents), ...configProblems(body)];
  }

  function describe({ body, url }: IncomingCall): WireRequest {
    const contents: Body[] = Array.isArray(body?.contents) ? body.contents : [];
    const users = contents.filter((c) => c?.role !== "model" && textOf(c));
    let promptChars = textOf(body?.systemInstruction).length;
    for (const c of contents) {
      for (const p of partsOf(c)) {
        if (typeof p?.text === "string") promptChars += p.text.length;
        if (p?.functionCall) promptChars += JSON.stringify(p.functionCall.args ?? {}).length;
        if (p?.functionResponse) promptChars += JSON.stringify(p.functionResponse.response ?? {}).length;
      }
    }
    const config = body?.generationConfig ?? {};
    const forced = forcedJsonFunction(body);
    const schema =
      config.responseJsonSchema ??
      config.responseSchema ??
      declarations(body).find((d) => d?.name === forced)?.parametersJsonSchema;
    return {
      model: modelOf(url),
      system: textOf(body?.systemInstruction),
      lastUser: users.length ? textOf(users[users.length - 1]) : "",
      transcript: JSON.stringify(contents),
      tools: declarations(body)
        .map((d) => d?.name)
        .filter((n): n is string => typeof n === "string"),
      schemaName: typeof schema?.title === "string" ? schema.title : undefined,
      responseFormat: config.responseMimeType,
      stream: url.pathname.endsWith(":streamGenerateContent"),
      messages: contents.length,
      promptChars,
    };
  }

  /** The answer as parts; a JSON answer to a forced function becomes that function's call. */
  function parts(answer: Answer, body: Body): Body[] {
    const forced = forcedJsonFunction(body);
    if (forced && answer.json !== undefined && !answer.toolCalls.length)
      return [{ functionCall: { id: randomId("fc_", 8), name: forced, args: answer.json } }];
    const out: Body[] = [];
    if (answer.text) out.push({ text: answer.text });
    for (const t of answer.toolCalls)
      out.push({ functionCall: { id: t.id, name: t.name, args: parsedArguments(t.arguments) } });
    return out;
  }

  const usage = (a: Answer) => ({
    promptTokenCount: a.usage.input,
    candidatesTokenCount: a.usage.output,
    totalTokenCount: a.usage.input + a.usage.output,
  });
  const chunk = (model: string, id: string, p: Body[], extra: Record<string, unknown> = {}) => ({
    candidates: [{ content: { parts: p, role: "model" }, index: 0, ...extra }],
    modelVersion: model,
    responseId: id,
  });

  return {
    format: "google",
    streaming: (call) =>
      call.url.pathname.endsWith(":streamGenerateContent")
        ? call.url.searchParams.get("alt") === "sse"
          ? "sse"
          : "json-array"
        : false,
    describe,
    check,
    error: (status, detail) => geminiError(status, detail?.message),
    contextLength: () =>
      geminiError(
        400,
        "The input token count (1200000) exceeds the maximum number of tokens allowed (1048576).",
      ),
    respond(answer, ctx) {
      return {
        ...chunk(ctx.model, randomId("", 8), parts(answer, ctx.body), { finishReason: "STOP" }),
        usageMetadata: usage(answer),
      };
    },
    stream(answer, ctx) {
      const id = randomId("", 8);
      const all = parts(answer, ctx.body);
      const pieces: Body[][] = all.flatMap((p) =>
        p.text ? splitWords(p.text).map((text) => [{ text }]) : [[p]],
      );
      if (!pieces.length) pieces.push([{ text: "" }]);
      return pieces.map((p, i): Frame => {
        const last = i === pieces.length - 1;
        return {
          data: {
            ...chunk(ctx.model, id, p, last ? { finishReason: "STOP" } : {}),
            usageMetadata: last ? usage(answer) : { promptTokenCount: answer.usage.input },
          },
        };
      });
    },
  };
}

export const isGeminiPath = (path: string) =>
  /^\/v1beta\/models\/[^/:]+:(generateContent|streamGenerateContent)$/.test(path);
