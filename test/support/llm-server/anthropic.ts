/**
 * The Anthropic Messages API (`POST /v1/messages`), as `@ai-sdk/anthropic` speaks it, with the
 * request rules Anthropic documents and enforces (sources, read 2026-05):
 * - https://docs.claude.com/en/api/messages (required `model`, `max_tokens`, `messages`; roles
 *   user/assistant; non-empty text blocks; `temperature` 0–1; tools and `tool_choice`)
 * - https://docs.claude.com/en/api/versioning (the `anthropic-version` header is required)
 * - https://docs.claude.com/en/docs/agents-and-tools/tool-use/implement-tool-use (each `tool_use`
 *   is answered by a `tool_result` in the very next user message, results first)
 * - https://docs.claude.com/en/docs/build-with-claude/structured-outputs (`output_config.format`
 *   and strict tools: schema-rules.ts)
 * - https://docs.claude.com/en/docs/about-claude/models/overview (max output tokens per model)
 * - https://docs.claude.com/en/api/errors and https://docs.claude.com/en/api/rate-limits (error
 *   bodies, `retry-after`)
 * Streams are the documented events (`message_start` … `message_stop`).
 */
import { schemaProblems } from "./schema-rules.ts";
import {
  type Answer,
  parsedArguments,
  randomId,
  splitFragments,
  splitWords,
  type WireRequest,
} from "./script.ts";
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
  type WireError,
} from "./wire.ts";

const ERROR_TYPES: Record<number, string> = {
  400: "invalid_request_error",
  401: "authentication_error",
  403: "permission_error",
  404: "not_found_error",
  413: "request_too_large",
  429: "rate_limit_error",
  500: "api_error",
  529: "overloaded_error",
};

const DEFAULT_MESSAGES: Record<number, string> = {
  401: "invalid x-api-key",
  429: "This request would exceed the rate limit for your organization of 30,000 input tokens per minute. For details, refer to: https://docs.claude.com/en/api/rate-limits.",
  500: "Internal server error",
  529: "Overloaded",
};

export function anthropicError(status: number, message?: string): WireError {
  const type = ERROR_TYPES[status] ?? (status >= 500 ? "api_error" : "invalid_request_error");
  return {
    status,
    body: {
      type: "error",
      error: {
        type,
        message: message ?? DEFAULT_MESSAGES[status] ?? `scripted-llm: injected error ${status}`,
      },
      request_id: randomId("req_", 8),
    },
    headers: status === 429 ? { "retry-after": "1" } : undefined,
  };
}

/** Most output tokens per request, for the models whose limit Anthropic publishes. */
const MAX_OUTPUT: [RegExp, number][] = [
  [/claude-(sonnet|haiku)-4-5/, 64_000],
  [/claude-opus-4-1|claude-opus-4-2/, 32_000],
  [/claude-3-5-haiku|claude-3-haiku/, 8_192],
];

const refuse = (message: string, status = 400): Refusal => ({ status, message, violation: true });

const blocks = (content: unknown): Body[] =>
  typeof content === "string" ? [{ type: "text", text: content }] : Array.isArray(content) ? content : [];

function messageProblems(messages: Body[]): Refusal[] {
  const out: Refusal[] = [];
  messages.forEach((m, i) => {
    if (m?.role !== "user" && m?.role !== "assistant") {
      out.push(refuse(`messages.${i}.role: Input should be 'user' or 'assistant'`));
      return;
    }
    const content = blocks(m.content);
    const last = i === messages.length - 1;
    if (!content.length && !(last && m.role === "assistant"))
      out.push(
        refuse(
          `messages.${i}: all messages must have non-empty content except for the optional final assistant message`,
        ),
      );
    content.forEach((b, j) => {
      if (b?.type === "text" && (typeof b.text !== "string" || b.text === ""))
        out.push(refuse(`messages.${i}.content.${j}.text: text content blocks must be non-empty`));
    });
    if (last && m.role === "assistant" && /\s$/.test(partsText(content)))
      out.push(refuse("messages: final assistant content cannot end with trailing whitespace"));
    const uses = content.filter((b) => b?.type === "tool_use").map((b) => b.id as string);
    const next = messages[i + 1];
    if (m.role === "assistant" && uses.length) {
      const answered = new Set(
        blocks(next?.content)
          .filter((b) => b?.type === "tool_result")
          .map((b) => b.tool_use_id),
      );
      const missing = uses.filter((id) => !answered.has(id));
      if (next?.role !== "user" || missing.length)
        out.push(
          refuse(
            `messages.${i + 1}: \`tool_use\` ids were found without \`tool_result\` blocks immediately after: ${(next?.role === "user" ? missing : uses).join(", ")}. Each \`tool_use\` block must have a corresponding \`tool_result\` block in the next message.`,
          ),
        );
    }
    if (m.role === "user") {
      const previous = i > 0 ? blocks(messages[i - 1].content) : [];
      const used = new Set(previous.filter((b) => b?.type === "tool_use").map((b) => b.id));
      let seenOther = false;
      content.forEach((b, j) => {
        if (b?.type !== "tool_result") {
          seenOther = true;
          return;
        }
        if (!used.has(b.tool_use_id))
          out.push(
            refuse(
              `messages.${i}.content.${j}: unexpected \`tool_use_id\` found in \`tool_result\` blocks: ${b.tool_use_id}. Each \`tool_result\` block must have a corresponding \`tool_use\` block in the previous message.`,
            ),
          );
        else if (seenOther)
          out.push(
            refuse(
              `messages.${i}.content.${j}: \`tool_result\` blocks must come before any other content in the message`,
            ),
          );
      });
    }
  });
  return out;
}

function toolProblems(body: Body): Refusal[] {
  if (body?.tools === undefined) return [];
  const out: Refusal[] = [];
  const names = new Set<string>();
  (Array.isArray(body.tools) ? body.tools : []).forEach((t: Body, i: number) => {
    if (t?.type !== undefined && t.type !== "custom") return; // Anthropic's own server tools
    if (typeof t?.name !== "string" || !TOOL_NAME.test(t.name)) {
      out.push(refuse(`tools.${i}.custom.name: String should match pattern '^[a-zA-Z0-9_-]{1,64}$'`));
      return;
    }
    names.add(t.name);
    if (!isObject(t.input_schema)) {
      out.push(refuse(`tools.${i}.custom.input_schema: Field required`));
      return;
    }
    for (const p of schemaProblems("anthropic", t.strict === true ? "strict-tool" : "tool", t.input_schema))
      out.push(refuse(`tools.${i}.custom.input_schema: ${p}`));
  });
  const chosen = body.tool_choice?.type === "tool" ? body.tool_choice.name : undefined;
  if (chosen !== undefined && !names.has(chosen))
    out.push(refuse(`tool_choice.name: Tool '${chosen}' not found in the provided tools`));
  return out;
}

/** The tool a JSON answer goes to when the request forces one (the SDK's JSON-tool fallback). */
function forcedJsonTool(body: Body): string | undefined {
  if (body?.output_config?.format !== undefined) return undefined;
  if (body?.tool_choice?.type === "tool") return body.tool_choice.name;
  const tools = Array.isArray(body?.tools) ? body.tools : [];
  if (body?.tool_choice?.type === "any" && tools.some((t: Body) => t?.name === "json")) return "json";
  return undefined;
}

export function createAnthropicWire(opts: { apiKey?: string } = {}): Wire {
  function check({ body, headers }: IncomingCall): Refusal[] {
    const key = headerValue(headers, "x-api-key");
    if (!key) return [refuse("x-api-key header is required", 401)];
    if (opts.apiKey !== undefined && key !== opts.apiKey)
      return [{ ...refuse("invalid x-api-key", 401), violation: false }];
    if (!headerValue(headers, "anthropic-version")) return [refuse("anthropic-version: header is required")];
    const out: Refusal[] = [];
    for (const field of ["model", "max_tokens", "messages"])
      if (body?.[field] === undefined) out.push(refuse(`${field}: Field required`));
    const model = String(body?.model ?? "");
    if (body?.max_tokens !== undefined && !(Number.isInteger(body.max_tokens) && body.max_tokens >= 1))
      out.push(refuse("max_tokens: Input should be greater than or equal to 1"));
    const limit = MAX_OUTPUT.find(([re]) => re.test(model))?.[1];
    if (limit && body?.max_tokens > limit)
      out.push(
        refuse(
          `max_tokens: ${body.max_tokens} > ${limit}, which is the maximum allowed number of output tokens for ${model}`,
        ),
      );
    if (body?.temperature != null && !(body.temperature >= 0 && body.temperature <= 1))
      out.push(refuse("temperature: Input should be less than or equal to 1"));
    if (Array.isArray(body?.messages) && !body.messages.length)
      out.push(refuse("messages: at least one message is required"));
    out.push(...messageProblems(Array.isArray(body?.messages) ? body.messages : []), ...toolProblems(body));
    const format = body?.output_config?.format;
    if (format !== undefined) {
      if (/claude-3/.test(model))
        out.push(refuse(`output_config.format: structured outputs are not supported by model ${model}`));
      else if (format?.type !== "json_schema")
        out.push(refuse("output_config.format.type: Input should be 'json_schema'"));
      else
        for (const p of schemaProblems("anthropic", "output", format.schema))
          out.push(refuse(`output_config.format.schema: ${p}`));
    }
    return out;
  }

  function describe({ body }: IncomingCall): WireRequest {
    const messages: Body[] = Array.isArray(body?.messages) ? body.messages : [];
    const textOf = (m: Body) => partsText(blocks(m?.content), (b) => b.type === "text");
    const users = messages.filter((m) => m?.role === "user" && textOf(m));
    let promptChars = partsText(blocks(body?.system)).length;
    for (const m of messages) {
      for (const b of blocks(m?.content)) {
        if (b?.type === "text") promptChars += String(b.text ?? "").length;
        if (b?.type === "tool_use") promptChars += JSON.stringify(b.input ?? {}).length;
        if (b?.type === "tool_result") promptChars += partsText(b.content).length;
      }
    }
    const tools = (Array.isArray(body?.tools) ? body.tools : []).filter(
      (t: Body) => typeof t?.name === "string",
    );
    const forced = forcedJsonTool(body);
    const schema =
      body?.output_config?.format?.schema ?? tools.find((t: Body) => t.name === forced)?.input_schema;
    return {
      model: String(body?.model ?? ""),
      system: partsText(blocks(body?.system)),
      lastUser: users.length ? textOf(users[users.length - 1]) : "",
      transcript: JSON.stringify(messages),
      tools: tools.map((t: Body) => t.name),
      schemaName: typeof schema?.title === "string" ? schema.title : undefined,
      responseFormat: body?.output_config?.format?.type,
      stream: body?.stream === true,
      messages: messages.length,
      promptChars,
    };
  }

  /** The answer as content blocks; a JSON answer to a forced tool becomes that tool's call. */
  function content(answer: Answer, body: Body): Body[] {
    const forced = forcedJsonTool(body);
    if (forced && answer.json !== undefined && !answer.toolCalls.length)
      return [{ type: "tool_use", id: randomId("toolu_", 12), name: forced, input: answer.json }];
    const out: Body[] = [];
    if (answer.text) out.push({ type: "text", text: answer.text });
    for (const t of answer.toolCalls)
      out.push({ type: "tool_use", id: t.id, name: t.name, input: parsedArguments(t.arguments) });
    return out;
  }

  const usage = (a: Answer, output = a.usage.output) => ({
    input_tokens: a.usage.input,
    cache_creation_input_tokens: 0,
    cache_read_input_tokens: 0,
    output_tokens: output,
    service_tier: "standard",
  });
  const stopReason = (blocks: Body[]) =>
    blocks.some((b) => b.type === "tool_use") ? "tool_use" : "end_turn";
  const message = (model: string, blocks: Body[], a: Answer) => ({
    id: randomId("msg_", 12),
    type: "message",
    role: "assistant",
    model,
    content: blocks,
    stop_reason: stopReason(blocks),
    stop_sequence: null,
    usage: usage(a),
  });

  return {
    format: "anthropic",
    streaming: ({ body }) => (body?.stream === true ? "sse" : false),
    describe,
    check,
    error: (status, detail) => anthropicError(status, detail?.message),
    contextLength: () => anthropicError(400, "prompt is too long: 210000 tokens > 200000 maximum"),
    respond: (answer, ctx) => message(ctx.model, content(answer, ctx.body), answer),
    stream(answer, ctx) {
      const done = message(ctx.model, content(answer, ctx.body), answer);
      const events: Body[] = [
        {
          type: "message_start",
          message: { ...done, content: [], stop_reason: null, usage: usage(answer, 1) },
        },
      ];
      done.content.forEach((block, index) => {
        if (block.type === "text") {
          events.push(
            { type: "content_block_start", index, content_block: { type: "text", text: "" } },
            ...splitWords(block.text).map((text) => ({
              type: "content_block_delta",
              index,
              delta: { type: "text_delta", text },
            })),
          );
        } else {
          const json = typeof block.input === "string" ? block.input : JSON.stringify(block.input);
          events.push(
            { type: "content_block_start", index, content_block: { ...block, input: {} } },
            ...splitFragments(json).map((partial_json) => ({
              type: "content_block_delta",
              index,
              delta: { type: "input_json_delta", partial_json },
            })),
          );
        }
        events.push({ type: "content_block_stop", index });
        if (index === 0) events.push({ type: "ping" });
      });
      events.push(
        {
          type: "message_delta",
          delta: { stop_reason: done.stop_reason, stop_sequence: null },
          usage: { output_tokens: answer.usage.output },
        },
        { type: "message_stop" },
      );
      return events.map((e): Frame => ({ event: e.type, data: e }));
    },
  };
}
