/**
 * OpenAI-compatible chat completions (`POST /v1/chat/completions`), as `@ai-sdk/openai-compatible`
 * speaks it to Ollama, vLLM, LM Studio and the like. Local servers differ in what they check, so
 * this format enforces no request rules: it answers what the script says.
 */
import { type Answer, randomId, splitFragments, splitWords, type WireRequest } from "./script.ts";
import { type Body, type Frame, partsText, type Wire, type WireError } from "./wire.ts";

function openAiError(message: string, type: string, code: string | null, param: string | null = null) {
  return { error: { message, type, param, code } };
}

/** OpenAI's own bodies for injected errors (chat completions and the Responses API share them). */
export function openAiErrorFor(
  status: number,
  detail?: { message: string; code?: string; param?: string },
): WireError {
  if (detail) {
    const type = status >= 500 ? "server_error" : "invalid_request_error";
    return { status, body: openAiError(detail.message, type, detail.code ?? null, detail.param ?? null) };
  }
  if (status === 429) {
    return {
      status,
      body: openAiError(
        "Rate limit reached for gpt-4o in organization org-test on tokens per min (TPM): Limit 30000, Used 30000, Requested 1200. Please try again in 2.4s. Visit https://platform.openai.com/account/rate-limits to learn more.",
        "tokens",
        "rate_limit_exceeded",
      ),
    };
  }
  if (status === 401) {
    return {
      status,
      body: openAiError(
        "Incorrect API key provided: test. You can find your API key at https://platform.openai.com/account/api-keys.",
        "invalid_request_error",
        "invalid_api_key",
      ),
    };
  }
  if (status >= 500) {
    return {
      status,
      body: openAiError(
        "The server had an error while processing your request. Sorry about that!",
        "server_error",
        null,
      ),
    };
  }
  return {
    status,
    body: openAiError(`scripted-llm: injected error ${status}`, "invalid_request_error", null),
  };
}

const JSON_MODE_NAME = /Reply with only a JSON object \("([^"]+)"\)/;

const messagesOf = (body: Body): Body[] => (Array.isArray(body?.messages) ? body.messages : []);

export const chatWire: Wire = {
  format: "openai-chat",
  streaming: ({ body }) => (body?.stream === true ? "sse" : false),
  describe({ body }): WireRequest {
    const messages = messagesOf(body);
    const users = messages.filter((m) => m?.role === "user");
    let promptChars = 0;
    for (const m of messages) {
      promptChars += partsText(m?.content).length;
      for (const c of Array.isArray(m?.tool_calls) ? m.tool_calls : [])
        promptChars += String(c?.function?.arguments ?? "").length;
    }
    const system = messages
      .filter((m) => m?.role === "system" || m?.role === "developer")
      .map((m) => partsText(m.content))
      .join("\n");
    return {
      model: String(body?.model ?? ""),
      system,
      lastUser: users.length ? partsText(users[users.length - 1].content) : "",
      transcript: JSON.stringify(messages),
      tools: (Array.isArray(body?.tools) ? body.tools : [])
        .map((t: Body) => t?.function?.name)
        .filter((n: unknown): n is string => typeof n === "string"),
      // In JSON mode the instructions name the schema ("a JSON object (\"directive_plan\")", lib/ai/json-mode.ts).
      schemaName: body?.response_format?.json_schema?.name ?? system.match(JSON_MODE_NAME)?.[1],
      responseFormat: body?.response_format?.type,
      stream: body?.stream === true,
      messages: messages.length,
      promptChars,
    };
  },
  check: () => [],
  error: openAiErrorFor,
  contextLength: () => ({
    status: 400,
    body: openAiError(
      "This model's maximum context length is 8192 tokens. However, your messages resulted in 9000 tokens. Please reduce the length of the messages.",
      "invalid_request_error",
      "context_length_exceeded",
      "messages",
    ),
  }),
  respond(answer, ctx) {
    const message: Record<string, unknown> = { role: "assistant", content: answer.text, refusal: null };
    if (answer.toolCalls.length) {
      message.tool_calls = answer.toolCalls.map((t) => ({
        id: t.id,
        type: "function",
        function: { name: t.name, arguments: t.arguments },
      }));
    }
    return {
      ...envelope(ctx.model, "chat.completion"),
      choices: [{ index: 0, message, logprobs: null, finish_reason: finishReason(answer) }],
      usage: usage(answer),
    };
  },
  stream(answer, ctx) {
    const head = envelope(ctx.model, "chat.completion.chunk");
    const chunk = (delta: Record<string, unknown>, finish: string | null = null): Frame => ({
      data: { ...head, choices: [{ index: 0, delta, logprobs: null, finish_reason: finish }] },
    });
    const frames: Frame[] = [chunk({ role: "assistant", content: "", refusal: null })];
    if (answer.text) for (const piece of splitWords(answer.text)) frames.push(chunk({ content: piece }));
    answer.toolCalls.forEach((t, index) => {
      frames.push(
        chunk({
          tool_calls: [{ index, id: t.id, type: "function", function: { name: t.name, arguments: "" } }],
        }),
      );
      for (const frag of splitFragments(t.arguments)) {
        frames.push(chunk({ tool_calls: [{ index, function: { arguments: frag } }] }));
      }
    });
    frames.push(chunk({}, finishReason(answer)));
    if (ctx.body?.stream_options?.include_usage) {
      const { system_fingerprint: _, ...rest } = head;
      frames.push({ data: { ...rest, choices: [], usage: usage(answer) } });
    }
    frames.push({ raw: "[DONE]" });
    return frames;
  },
};

function envelope(model: string, object: string) {
  return {
    id: randomId("chatcmpl-"),
    object,
    created: Math.floor(Date.now() / 1000),
    model,
    system_fingerprint: "fp_scripted",
  };
}

const finishReason = (a: Answer) => (a.toolCalls.length ? "tool_calls" : "stop");

const usage = (a: Answer) => ({
  prompt_tokens: a.usage.input,
  completion_tokens: a.usage.output,
  total_tokens: a.usage.input + a.usage.output,
});
