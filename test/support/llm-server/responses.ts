/**
 * The OpenAI Responses API (`POST /v1/responses`), as `@ai-sdk/openai` speaks it, with the request
 * rules OpenAI documents and enforces (sources, read 2026-05):
 * - https://platform.openai.com/docs/api-reference/responses/create (required fields, input items,
 *   `max_output_tokens` ≥ 16, `text.format`, function tools, stored items for `item_reference`)
 * - https://platform.openai.com/docs/guides/function-calling (each `function_call_output` answers a
 *   `function_call` with the same `call_id`)
 * - https://platform.openai.com/docs/guides/structured-outputs (strict schemas: schema-rules.ts)
 * - https://platform.openai.com/docs/guides/reasoning (reasoning models take no `temperature`/`top_p`)
 * - https://platform.openai.com/docs/api-reference/authentication (Bearer key) and
 *   https://platform.openai.com/docs/guides/error-codes (error bodies)
 * Streams are the documented semantic events (`response.created` … `response.completed`).
 */
import { openAiErrorFor } from "./chat.ts";
import { schemaProblems } from "./schema-rules.ts";
import { type Answer, randomId, splitFragments, splitWords, type WireRequest } from "./script.ts";
import {
  type Body,
  type Frame,
  headerValue,
  type IncomingCall,
  isObject,
  partsText,
  type Refusal,
  TOOL_NAME,
  type Wire,
} from "./wire.ts";

const refuse = (message: string, param?: string, code?: string, status = 400): Refusal => ({
  status,
  message,
  param,
  code,
  violation: true,
});

// gpt-5 family and o-series models reason; gpt-5-chat models do not.
const isReasoningModel = (model: string) => /^(o\d|gpt-5)/.test(model) && !model.includes("chat");

export function createResponsesWire(opts: { apiKey?: string } = {}): Wire {
  /** Output items OpenAI would have stored (`store` defaults to true), by id, and response ids. */
  const items = new Map<string, Body>();
  const responses = new Set<string>();

  /** The input with each `item_reference` replaced by the stored item it names. */
  const resolved = (body: Body): Body[] =>
    (Array.isArray(body?.input) ? body.input : typeof body?.input === "string" ? [body.input] : []).map(
      (item: Body) => (item?.type === "item_reference" ? (items.get(item.id) ?? item) : item),
    );

  function check({ body, headers }: IncomingCall): Refusal[] {
    const auth = headerValue(headers, "authorization");
    const key = auth?.match(/^Bearer\s+(\S+)$/)?.[1];
    if (!key) {
      return [
        refuse(
          "You didn't provide an API key. You need to provide your API key in an Authorization header using Bearer auth (i.e. Authorization: Bearer YOUR_KEY).",
          undefined,
          undefined,
          401,
        ),
      ];
    }
    if (opts.apiKey !== undefined && key !== opts.apiKey) {
      return [
        {
          ...refuse(`Incorrect API key provided: ${key.slice(0, 3)}***.`, undefined, "invalid_api_key", 401),
          violation: false,
        },
      ];
    }
    const out: Refusal[] = [];
    if (typeof body?.model !== "string" || !body.model)
      out.push(refuse("Missing required parameter: 'model'.", "model", "missing_required_parameter"));
    if (body?.input === undefined && body?.previous_response_id === undefined)
      out.push(refuse("Missing required parameter: 'input'.", "input", "missing_required_parameter"));
    if (
      body?.max_output_tokens != null &&
      !(Number.isInteger(body.max_output_tokens) && body.max_output_tokens >= 16)
    ) {
      out.push(
        refuse(
          `Invalid 'max_output_tokens': integer below minimum value. Expected a value >= 16, but got ${body.max_output_tokens} instead.`,
          "max_output_tokens",
          "integer_below_min_value",
        ),
      );
    }
    const model = String(body?.model ?? "");
    if (isReasoningModel(model) && body?.reasoning?.effort !== "none") {
      for (const p of ["temperature", "top_p"]) {
        if (body?.[p] != null)
          out.push(
            refuse(
              `Unsupported parameter: '${p}' is not supported with this model.`,
              p,
              "unsupported_parameter",
            ),
          );
      }
    }
    if (body?.previous_response_id != null && !responses.has(body.previous_response_id)) {
      out.push(
        refuse(
          `Previous response with id '${body.previous_response_id}' not found.`,
          "previous_response_id",
          undefined,
          404,
        ),
      );
    }
    out.push(...inputProblems(body), ...formatProblems(body), ...toolProblems(body));
    return out;
  }

  function inputProblems(body: Body): Refusal[] {
    if (!Array.isArray(body?.input)) return [];
    const out: Refusal[] = [];
    const calls = new Set<string>();
    body.input.forEach((raw: Body, i: number) => {
      if (raw?.type === "item_reference" && !items.has(raw.id)) {
        out.push(refuse(`Item with id '${raw.id}' not found.`, "input", undefined, 404));
        return;
      }
      const item = raw?.type === "item_reference" ? items.get(raw.id) : raw;
      if (item?.type === "function_call") {
        if (
          typeof item.call_id !== "string" ||
          typeof item.name !== "string" ||
          typeof item.arguments !== "string"
        )
          out.push(
            refuse(
              `Invalid 'input[${i}]': a function_call needs call_id, name and arguments (a string).`,
              `input[${i}]`,
            ),
          );
        calls.add(item.call_id);
      } else if (item?.type === "function_call_output") {
        if (!calls.has(item.call_id))
          out.push(
            refuse(`No tool call found for function call output with call_id ${item.call_id}.`, "input"),
          );
      } else if (item?.type === undefined || item?.type === "message") {
        if (!["user", "assistant", "system", "developer"].includes(item?.role))
          out.push(
            refuse(
              `Invalid value: '${item?.role}'. Supported values are: 'user', 'assistant', 'system', and 'developer'.`,
              `input[${i}].role`,
              "invalid_value",
            ),
          );
        else if (typeof item.content !== "string" && !Array.isArray(item.content))
          out.push(
            refuse(
              `Missing required parameter: 'input[${i}].content'.`,
              `input[${i}].content`,
              "missing_required_parameter",
            ),
          );
      }
    });
    return out;
  }

  function formatProblems(body: Body): Refusal[] {
    const format = body?.text?.format;
    if (format?.type !== "json_schema") return [];
    if (typeof format.name !== "string" || !/^[a-zA-Z0-9_-]{1,64}$/.test(format.name)) {
      return [
        refuse(
          "Invalid 'text.format.name': string does not match pattern. Expected a string that matches the pattern '^[a-zA-Z0-9_-]+$'.",
          "text.format.name",
          "invalid_value",
        ),
      ];
    }
    if (!isObject(format.schema))
      return [
        refuse(
          "Missing required parameter: 'text.format.schema'.",
          "text.format.schema",
          "missing_required_parameter",
        ),
      ];
    if (format.strict !== true) return [];
    return schemaProblems("openai", "output", format.schema).map((p) =>
      refuse(
        `Invalid schema for response_format '${format.name}': ${p}`,
        "text.format.schema",
        "invalid_json_schema",
      ),
    );
  }

  function toolProblems(body: Body): Refusal[] {
    if (body?.tools === undefined) return [];
    if (!Array.isArray(body.tools))
      return [refuse("Invalid type for 'tools': expected an array.", "tools", "invalid_type")];
    const out: Refusal[] = [];
    const names = new Set<string>();
    body.tools.forEach((t: Body, i: number) => {
      if (t?.type !== "function") return;
      if (typeof t.name !== "string" || !TOOL_NAME.test(t.name)) {
        out.push(
          refuse(
            `Invalid 'tools[${i}].name': string does not match pattern. Expected a string that matches the pattern '^[a-zA-Z0-9_-]+$'.`,
            `tools[${i}].name`,
            "invalid_value",
          ),
        );
        return;
      }
      names.add(t.name);
      const use = t.strict === true ? "strict-tool" : "tool";
      for (const p of schemaProblems("openai", use, t.parameters))
        out.push(
          refuse(
            `Invalid schema for function '${t.name}': ${p}`,
            `tools[${i}].parameters`,
            "invalid_function_parameters",
          ),
        );
    });
    const chosen = body.tool_choice?.type === "function" ? body.tool_choice.name : undefined;
    if (chosen !== undefined && !names.has(chosen))
      out.push(refuse(`Tool choice '${chosen}' not found in 'tools' parameter.`, "tool_choice"));
    return out;
  }

  function describe({ body }: IncomingCall): WireRequest {
    const input = resolved(body);
    const messages = input.filter(
      (m: Body) => typeof m === "string" || m?.type === undefined || m?.type === "message",
    );
    const textOf = (m: Body) => (typeof m === "string" ? m : partsText(m?.content));
    const users = messages.filter((m: Body) => typeof m === "string" || m.role === "user");
    let promptChars = String(body?.instructions ?? "").length;
    for (const item of input) {
      promptChars += textOf(item).length;
      if (item?.type === "function_call") promptChars += String(item.arguments ?? "").length;
      if (item?.type === "function_call_output") promptChars += partsText(item.output).length;
    }
    const format = body?.text?.format;
    return {
      model: String(body?.model ?? ""),
      system: [
        ...(typeof body?.instructions === "string" ? [body.instructions] : []),
        ...messages.filter((m: Body) => m.role === "system" || m.role === "developer").map(textOf),
      ].join("\n"),
      lastUser: users.length ? textOf(users[users.length - 1]) : "",
      transcript: JSON.stringify(input),
      tools: (Array.isArray(body?.tools) ? body.tools : [])
        .filter((t: Body) => t?.type === "function" && typeof t.name === "string")
        .map((t: Body) => t.name),
      schemaName: format?.type === "json_schema" ? format.name : undefined,
      responseFormat: format?.type,
      stream: body?.stream === true,
      messages: input.length,
      promptChars,
    };
  }

  /** The answer as output items, stored for later `item_reference`s unless `store` is false. */
  function outputItems(answer: Answer, body: Body): Body[] {
    const out: Body[] = [];
    if (answer.text !== null) {
      out.push({
        id: randomId("msg_"),
        type: "message",
        status: "completed",
        role: "assistant",
        content: [{ type: "output_text", text: answer.text, annotations: [], logprobs: [] }],
      });
    }
    for (const t of answer.toolCalls) {
      out.push({
        id: randomId("fc_"),
        type: "function_call",
        status: "completed",
        call_id: t.id,
        name: t.name,
        arguments: t.arguments,
      });
    }
    if (body?.store !== false) for (const item of out) items.set(item.id, item);
    return out;
  }

  function response(body: Body, model: string, status: string, output: Body[], answer?: Answer) {
    const id = randomId("resp_");
    if (body?.store !== false) responses.add(id);
    return {
      id,
      object: "response",
      created_at: Math.floor(Date.now() / 1000),
      status,
      error: null,
      incomplete_details: null,
      instructions: body?.instructions ?? null,
      max_output_tokens: body?.max_output_tokens ?? null,
      model,
      output,
      parallel_tool_calls: true,
      previous_response_id: body?.previous_response_id ?? null,
      store: body?.store ?? true,
      text: body?.text ?? { format: { type: "text" } },
      tool_choice: body?.tool_choice ?? "auto",
      tools: body?.tools ?? [],
      usage: answer ? usageOf(answer) : null,
      metadata: {},
    };
  }

  return {
    format: "openai-responses",
    streaming: ({ body }) => (body?.stream === true ? "sse" : false),
    describe,
    check,
    // OpenAI's 429s say when to come back (the SDKs honour retry-after and retry-after-ms).
    error: (status, detail) => {
      const e = openAiErrorFor(status, detail);
      return status === 429 ? { ...e, headers: { "retry-after": "1" } } : e;
    },
    contextLength: () =>
      openAiErrorFor(400, {
        message:
          "Your input exceeds the context window of this model. Please adjust your input and try again.",
        code: "context_length_exceeded",
        param: "input",
      }),
    respond: (answer, ctx) =>
      response(ctx.body, ctx.model, "completed", outputItems(answer, ctx.body), answer),
    stream(answer, ctx) {
      const output = outputItems(answer, ctx.body);
      const done = response(ctx.body, ctx.model, "completed", output, answer);
      const started = { ...done, status: "in_progress", output: [], usage: null };
      const events: Body[] = [
        { type: "response.created", response: started },
        { type: "response.in_progress", response: started },
      ];
      output.forEach((item, output_index) => {
        if (item.type === "message") {
          const text = item.content[0].text as string;
          const part = { type: "output_text", text: "", annotations: [] };
          const at = { item_id: item.id, output_index, content_index: 0 };
          events.push(
            {
              type: "response.output_item.added",
              output_index,
              item: { ...item, status: "in_progress", content: [] },
            },
            { type: "response.content_part.added", ...at, part },
            ...splitWords(text).map((delta) => ({
              type: "response.output_text.delta",
              ...at,
              delta,
              logprobs: [],
            })),
            { type: "response.output_text.done", ...at, text, logprobs: [] },
            { type: "response.content_part.done", ...at, part: { ...part, text } },
          );
        } else {
          const at = { item_id: item.id, output_index };
          events.push(
            {
              type: "response.output_item.added",
              output_index,
              item: { ...item, status: "in_progress", arguments: "" },
            },
            ...splitFragments(item.arguments).map((delta) => ({
              type: "response.function_call_arguments.delta",
              ...at,
              delta,
            })),
            { type: "response.function_call_arguments.done", ...at, arguments: item.arguments },
          );
        }
        events.push({ type: "response.output_item.done", output_index, item });
      });
      events.push({ type: "response.completed", response: done });
      return events.map((e, sequence_number): Frame => ({ event: e.type, data: { ...e, sequence_number } }));
    },
  };
}

const usageOf = (a: Answer) => ({
  input_tokens: a.usage.input,
  input_tokens_details: { cached_tokens: 0 },
  output_tokens: a.usage.output,
  output_tokens_details: { reasoning_tokens: 0 },
  total_tokens: a.usage.input + a.usage.output,
});
