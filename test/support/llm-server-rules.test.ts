// The request rules the scripted server enforces per provider, each broken on purpose by a raw
// request: refused with that provider's own status and error body, and logged as a violation (the
// provider packages never send these, so they are written by hand here).
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { type ScriptedLlm, startScriptedLlm } from "./llm-server.ts";

let llm: ScriptedLlm;
beforeAll(async () => {
  llm = await startScriptedLlm();
  llm.setScript([{ replies: [{ kind: "text", text: "fine" }], repeat: true }]);
});
afterAll(() => llm.close());
beforeEach(() => {
  llm.requests.length = 0;
});

type ErrorBody = {
  type?: string;
  error?: { type?: unknown; param?: unknown; code?: unknown; status?: unknown };
};
type Case = {
  rule: string;
  body: unknown;
  headers?: Record<string, string>;
  status?: number;
  message: RegExp;
};

async function post(url: string, body: unknown, headers: Record<string, string>) {
  const res = await fetch(url, {
    method: "POST",
    headers: { "content-type": "application/json", ...headers },
    body: JSON.stringify(body),
  });
  return { status: res.status, body: (await res.json()) as ErrorBody };
}

const user = (text: string) => ({ role: "user", content: [{ type: "input_text", text }] });
const strictFormat = (schema: unknown) => ({
  format: { type: "json_schema", name: "plan", strict: true, schema },
});

const openaiCases: Case[] = [
  {
    rule: "a Bearer key",
    body: { model: "gpt-5.1", input: "hi" },
    headers: { authorization: "" },
    status: 401,
    message: /didn't provide an API key/,
  },
  { rule: "model is required", body: { input: "hi" }, message: /Missing required parameter: 'model'/ },
  {
    rule: "a function_call_output answers a function_call",
    body: {
      model: "gpt-5.1",
      input: [user("go"), { type: "function_call_output", call_id: "call_9", output: "x" }],
    },
    message: /No tool call found for function call output with call_id call_9/,
  },
  {
    rule: "reasoning models take no temperature",
    body: { model: "gpt-5.1", input: "hi", temperature: 0.2 },
    message: /'temperature' is not supported with this model/,
  },
  {
    rule: "max_output_tokens ≥ 16",
    body: { model: "gpt-4.1", input: "hi", max_output_tokens: 8 },
    message: /Expected a value >= 16/,
  },
  {
    rule: "strict schemas require every property",
    body: {
      model: "gpt-4.1",
      input: "hi",
      text: strictFormat({
        type: "object",
        properties: { a: { type: "string" }, b: { type: "string" } },
        required: ["a"],
        additionalProperties: false,
      }),
    },
    message:
      /Invalid schema for response_format 'plan': #\/properties\/b: optional \(every property must be required\)/,
  },
  {
    rule: "strict schemas use only supported keywords",
    body: {
      model: "gpt-4.1",
      input: "hi",
      text: strictFormat({
        type: "object",
        properties: { a: { type: "string", minLength: 1 } },
        required: ["a"],
        additionalProperties: false,
      }),
    },
    message: /#\/properties\/a: minLength is not supported/,
  },
  {
    rule: "tool_choice names a tool",
    body: { model: "gpt-4.1", input: "hi", tools: [], tool_choice: { type: "function", name: "nope" } },
    message: /Tool choice 'nope' not found/,
  },
];

const claude = (messages: unknown[], extra: Record<string, unknown> = {}) => ({
  model: "claude-sonnet-4-5",
  max_tokens: 1024,
  messages,
  ...extra,
});
const toolUse = {
  role: "assistant",
  content: [{ type: "tool_use", id: "toolu_1", name: "web_search", input: { query: "q" } }],
};
const anthropicCases: Case[] = [
  {
    rule: "an x-api-key",
    body: claude([{ role: "user", content: "hi" }]),
    headers: { "x-api-key": "" },
    status: 401,
    message: /x-api-key header is required/,
  },
  {
    rule: "the anthropic-version header",
    body: claude([{ role: "user", content: "hi" }]),
    headers: { "anthropic-version": "" },
    message: /anthropic-version: header is required/,
  },
  {
    rule: "max_tokens is required",
    body: { model: "claude-sonnet-4-5", messages: [{ role: "user", content: "hi" }] },
    message: /max_tokens: Field required/,
  },
  {
    rule: "max_tokens within the model's limit",
    body: claude([{ role: "user", content: "hi" }], { max_tokens: 100_000 }),
    message: /100000 > 64000/,
  },
  {
    rule: "roles are user and assistant",
    body: claude([
      { role: "system", content: "be brief" },
      { role: "user", content: "hi" },
    ]),
    message: /Input should be 'user' or 'assistant'/,
  },
  {
    rule: "text blocks are non-empty",
    body: claude([{ role: "user", content: [{ type: "text", text: "" }] }]),
    message: /text content blocks must be non-empty/,
  },
  {
    rule: "a tool_use is answered in the next message",
    body: claude([{ role: "user", content: "go" }, toolUse, { role: "user", content: "and?" }]),
    message: /`tool_use` ids were found without `tool_result` blocks immediately after: toolu_1/,
  },
  {
    rule: "tool results come before other content",
    body: claude([
      { role: "user", content: "go" },
      toolUse,
      {
        role: "user",
        content: [
          { type: "text", text: "here" },
          { type: "tool_result", tool_use_id: "toolu_1", content: "r" },
        ],
      },
    ]),
    message: /`tool_result` blocks must come before any other content/,
  },
  {
    rule: "structured outputs stay in Anthropic's schema subset",
    body: claude([{ role: "user", content: "hi" }], {
      output_config: {
        format: {
          type: "json_schema",
          schema: {
            type: "object",
            properties: { n: { type: "integer", minimum: 1 } },
            required: ["n"],
            additionalProperties: false,
          },
        },
      },
    }),
    message: /output_config.format.schema: #\/properties\/n: minimum is not supported/,
  },
];

const geminiCases: Case[] = [
  {
    rule: "an API key",
    body: { contents: [{ role: "user", parts: [{ text: "hi" }] }] },
    headers: { "x-goog-api-key": "" },
    status: 403,
    message: /unregistered callers/,
  },
  { rule: "contents are required", body: { contents: [] }, message: /contents is not specified/ },
  {
    rule: "roles are user and model",
    body: { contents: [{ role: "assistant", parts: [{ text: "hi" }] }] },
    message: /valid role: user, model/,
  },
  {
    rule: "parts are non-empty",
    body: { contents: [{ role: "user", parts: [] }] },
    message: /contents.parts must not be empty/,
  },
  {
    rule: "a function response follows its call",
    body: {
      contents: [{ role: "user", parts: [{ functionResponse: { name: "web_search", response: { r: 1 } } }] }],
    },
    message: /function response turn comes immediately after a function call turn/,
  },
  {
    rule: "one response per call",
    body: {
      contents: [
        { role: "user", parts: [{ text: "go" }] },
        {
          role: "model",
          parts: [{ functionCall: { name: "a", args: {} } }, { functionCall: { name: "b", args: {} } }],
        },
        { role: "user", parts: [{ functionResponse: { name: "a", response: {} } }] },
      ],
    },
    message: /number of function response parts is equal to the number of function call parts/,
  },
  {
    rule: "a response schema needs the JSON mime type",
    body: {
      contents: [{ role: "user", parts: [{ text: "hi" }] }],
      generationConfig: { responseJsonSchema: { type: "object" } },
    },
    message: /response_mime_type must be application\/json/,
  },
  {
    rule: "function names",
    body: {
      contents: [{ role: "user", parts: [{ text: "hi" }] }],
      tools: [{ functionDeclarations: [{ name: "9lives", parametersJsonSchema: { type: "object" } }] }],
    },
    message: /Invalid function name/,
  },
];

const providers: {
  provider: string;
  url: () => string;
  headers: Record<string, string>;
  cases: Case[];
  shape: (b: ErrorBody) => boolean;
}[] = [
  {
    provider: "OpenAI Responses",
    url: () => `${llm.baseUrls.openai}/responses`,
    headers: { authorization: "Bearer sk-test" },
    cases: openaiCases,
    shape: (b: ErrorBody) => !!b.error && "type" in b.error && "param" in b.error && "code" in b.error,
  },
  {
    provider: "Anthropic Messages",
    url: () => `${llm.baseUrls.anthropic}/messages`,
    headers: { "x-api-key": "sk-ant-test", "anthropic-version": "2023-06-01" },
    cases: anthropicCases,
    shape: (b: ErrorBody) => b.type === "error" && typeof b.error?.type === "string",
  },
  {
    provider: "Gemini",
    url: () => `${llm.baseUrls.google}/models/gemini-2.5-flash:generateContent`,
    headers: { "x-goog-api-key": "g-test" },
    cases: geminiCases,
    shape: (b: ErrorBody) => typeof b.error?.code === "number" && typeof b.error?.status === "string",
  },
];

describe.each(providers)(
  "$provider refuses a broken rule with its own error",
  ({ url, headers, cases, shape }) => {
    it.each(cases)("$rule", async (c) => {
      const given = Object.fromEntries(
        Object.entries({ ...headers, ...c.headers }).filter(([, v]) => v !== ""),
      );
      const res = await post(url(), c.body, given);
      expect(res.status).toBe(c.status ?? 400);
      expect(shape(res.body)).toBe(true);
      expect(JSON.stringify(res.body)).toMatch(c.message);
      expect(llm.requests).toHaveLength(1);
      expect(llm.requests[0].violations.join("\n")).toMatch(c.message);
      expect(llm.requests[0].rule).toBeUndefined();
    });

    it("answers a request that keeps every rule", async () => {
      const body =
        cases === openaiCases
          ? { model: "gpt-4.1", input: [user("hi")] }
          : cases === anthropicCases
            ? claude([{ role: "user", content: "hi" }])
            : { contents: [{ role: "user", parts: [{ text: "hi" }] }] };
      const res = await post(url(), body, headers);
      expect(res.status).toBe(200);
      expect(JSON.stringify(res.body)).toContain("fine");
      expect(llm.requests[0].violations).toEqual([]);
    });
  },
);

it("with enforceRules off, a rule-breaking request is answered (e.g. a lenient proxy)", async () => {
  const lenient = await startScriptedLlm({ enforceRules: false });
  try {
    lenient.setScript([{ replies: [{ kind: "text", text: "fine" }] }]);
    const res = await post(
      `${lenient.baseUrls.anthropic}/messages`,
      claude([{ role: "user", content: "hi" }]),
      {
        "x-api-key": "k",
      },
    );
    expect(res.status).toBe(200);
    expect(lenient.requests[0].violations).toEqual([]);
  } finally {
    await lenient.close();
  }
});
