// Scripted OpenAI-compatible chat-completions server for tests. Never used in production.
// Tests script replies per request (matched by model/prompt/tool/schema), the server records
// every request so assertions can inspect exactly what the app sent.
import { randomBytes } from "node:crypto";
import http from "node:http";
import type { AddressInfo } from "node:net";
import { z } from "zod";

export type ScriptedReply = (
  | { kind: "text"; text: string }
  // arguments: an object (JSON-encoded for you) or a raw string (sent verbatim, e.g. malformed JSON)
  | { kind: "tool_calls"; calls: { name: string; arguments: unknown; id?: string }[]; text?: string }
  | { kind: "json"; value: unknown }
  | { kind: "raw"; content: string }
  | { kind: "error"; status: number; body?: unknown; headers?: Record<string, string> }
  | { kind: "context_length" }
  | { kind: "hang" }
) & {
  delayMs?: number;
  /** Streamed replies only: a pause between the pieces, so a reader can watch the text arrive. */
  chunkDelayMs?: number;
  usage?: { prompt_tokens: number; completion_tokens: number };
};

export interface ScriptRule {
  name?: string;
  match?: { model?: string; system?: string; user?: string; any?: string; tool?: string; schema?: string };
  replies: ScriptedReply[];
  repeat?: boolean;
}

export interface RecordedRequest {
  id: number;
  /** When the request arrived (before its body was read). */
  at: number;
  rule?: string;
  // biome-ignore lint/suspicious/noExplicitAny: request bodies are arbitrary JSON that tests poke into
  body: any;
  stream: boolean;
  // 0 while no response has been started (e.g. a pending `hang`)
  status: number;
  aborted: boolean;
  /** When the response ended (finished or the client went away); undefined while it is open. */
  endedAt?: number;
}

/**
 * A local server's missing feature, answered the way that server does (see localServerRefusal):
 * requests for a model whose name contains `model` that use a feature in `lacks` get its error.
 */
export interface ServerEmulation {
  model: string;
  server: "ollama" | "llama.cpp";
  lacks: ("json_schema" | "tools")[];
}

export interface ScriptedLlm {
  url: string;
  port: number;
  setScript(rules: ScriptRule[]): void;
  addRules(rules: ScriptRule[]): void;
  /** Emulate local servers lacking features (replaces earlier emulations; reset clears them). */
  emulate(servers: ServerEmulation[]): void;
  reset(): void;
  requests: RecordedRequest[];
  close(): Promise<void>;
}

// --- validation (control endpoints and in-process calls share it, so typos fail loudly) ---

const common = {
  delayMs: z.number().int().nonnegative().optional(),
  chunkDelayMs: z.number().int().nonnegative().max(5000).optional(),
  usage: z
    .strictObject({
      prompt_tokens: z.number().int().nonnegative(),
      completion_tokens: z.number().int().nonnegative(),
    })
    .optional(),
};

const replySchema = z.discriminatedUnion("kind", [
  z.strictObject({ kind: z.literal("text"), text: z.string(), ...common }),
  z.strictObject({
    kind: z.literal("tool_calls"),
    calls: z
      .array(z.strictObject({ name: z.string().min(1), arguments: z.unknown(), id: z.string().optional() }))
      .min(1),
    text: z.string().optional(),
    ...common,
  }),
  z.strictObject({ kind: z.literal("json"), value: z.unknown(), ...common }),
  z.strictObject({ kind: z.literal("raw"), content: z.string(), ...common }),
  z.strictObject({
    kind: z.literal("error"),
    status: z.number().int().min(400).max(599),
    body: z.unknown().optional(),
    headers: z.record(z.string(), z.string()).optional(),
    ...common,
  }),
  z.strictObject({ kind: z.literal("context_length"), ...common }),
  z.strictObject({ kind: z.literal("hang"), ...common }),
]);

const ruleSchema = z.strictObject({
  name: z.string().optional(),
  match: z
    .strictObject({
      model: z.string().optional(),
      system: z.string().optional(),
      user: z.string().optional(),
      any: z.string().optional(),
      tool: z.string().optional(),
      schema: z.string().optional(),
    })
    .optional(),
  replies: z.array(replySchema).min(1),
  repeat: z.boolean().optional(),
});

const rulesBodySchema = z.strictObject({ rules: z.array(ruleSchema) });

const emulationSchema = z.strictObject({
  model: z.string().min(1),
  server: z.enum(["ollama", "llama.cpp"]),
  lacks: z.array(z.enum(["json_schema", "tools"])).min(1),
});
const emulateBodySchema = z.strictObject({ servers: z.array(emulationSchema) });

function validateRules(rules: unknown): ScriptRule[] {
  return z.array(ruleSchema).parse(rules) as ScriptRule[];
}

// --- request inspection helpers ---

// Message content may be a string or an array of parts ({type:"text", text}).
function contentText(content: unknown): string {
  if (typeof content === "string") return content;
  if (Array.isArray(content)) {
    return content
      .map((p) => (p && typeof p === "object" && typeof p.text === "string" ? p.text : ""))
      .join("");
  }
  return "";
}

// biome-ignore lint/suspicious/noExplicitAny: arbitrary JSON body
type Body = any;

function messagesOf(body: Body): Body[] {
  return Array.isArray(body?.messages) ? body.messages : [];
}

function systemText(body: Body): string {
  return messagesOf(body)
    .filter((m) => m?.role === "system" || m?.role === "developer")
    .map((m) => contentText(m.content))
    .join("\n");
}

function lastUserText(body: Body): string {
  const users = messagesOf(body).filter((m) => m?.role === "user");
  return users.length ? contentText(users[users.length - 1].content) : "";
}

function toolNames(body: Body): string[] {
  return Array.isArray(body?.tools)
    ? body.tools.map((t: Body) => t?.function?.name).filter((n: unknown) => typeof n === "string")
    : [];
}

function schemaName(body: Body): string | undefined {
  return body?.response_format?.json_schema?.name;
}

// A request in JSON mode (json_object, or no response format) names its schema in the instructions
// ("a JSON object (\"directive_plan\")", lib/ai/json-mode.ts): scripts match it there too.
function namesSchemaInPrompt(body: Body, name: string): boolean {
  return !schemaName(body) && systemText(body).includes(`("${name}")`);
}

function matches(rule: ScriptRule, body: Body): boolean {
  const m = rule.match;
  if (!m) return true;
  if (m.model !== undefined && !String(body?.model ?? "").includes(m.model)) return false;
  if (m.system !== undefined && !systemText(body).includes(m.system)) return false;
  if (m.user !== undefined && !lastUserText(body).includes(m.user)) return false;
  if (m.any !== undefined && !JSON.stringify(messagesOf(body)).includes(m.any)) return false;
  if (m.tool !== undefined && !toolNames(body).some((n) => n.includes(m.tool as string))) return false;
  if (
    m.schema !== undefined &&
    !(schemaName(body) ?? "").includes(m.schema) &&
    !namesSchemaInPrompt(body, m.schema)
  )
    return false;
  return true;
}

function clip(s: string, n: number): string {
  const flat = s.replace(/\s+/g, " ").trim();
  return flat.length > n ? `${flat.slice(0, n)}…` : flat;
}

// A one-line description of the request, so a "no scripted reply" failure says what was asked.
function summarize(body: Body): string {
  const parts = [`model=${JSON.stringify(body?.model)}`];
  const sys = systemText(body);
  if (sys) parts.push(`system=${JSON.stringify(clip(sys, 120))}`);
  parts.push(`user=${JSON.stringify(clip(lastUserText(body), 160))}`);
  const tools = toolNames(body);
  if (tools.length) parts.push(`tools=[${tools.join(",")}]`);
  const schema = schemaName(body);
  if (schema) parts.push(`schema=${schema}`);
  else if (body?.response_format?.type) parts.push(`response_format=${body.response_format.type}`);
  parts.push(`messages=${messagesOf(body).length}`);
  if (body?.stream) parts.push("stream=true");
  return parts.join(" ");
}

function estimateTokens(chars: number): number {
  return Math.ceil(chars / 4);
}

function promptChars(body: Body): number {
  let n = 0;
  for (const m of messagesOf(body)) {
    n += contentText(m?.content).length;
    if (Array.isArray(m?.tool_calls)) {
      for (const c of m.tool_calls) n += String(c?.function?.arguments ?? "").length;
    }
  }
  return n;
}

// --- responses ---

function openAiError(message: string, type: string, code: string | null, param: string | null = null) {
  return { error: { message, type, param, code } };
}

// Realistic default bodies for injected errors, so error classification code sees the real shapes.
function defaultErrorBody(status: number) {
  if (status === 429) {
    return openAiError(
      "Rate limit reached for gpt-4o in organization org-test on tokens per min (TPM): Limit 30000, Used 30000, Requested 1200. Please try again in 2.4s. Visit https://platform.openai.com/account/rate-limits to learn more.",
      "tokens",
      "rate_limit_exceeded",
    );
  }
  if (status === 401) {
    return openAiError(
      "Incorrect API key provided: test. You can find your API key at https://platform.openai.com/account/api-keys.",
      "invalid_request_error",
      "invalid_api_key",
    );
  }
  if (status >= 500) {
    return openAiError(
      "The server had an error while processing your request. Sorry about that!",
      "server_error",
      null,
    );
  }
  return openAiError(`scripted-llm: injected error ${status}`, "invalid_request_error", null);
}

const CONTEXT_LENGTH_BODY = openAiError(
  "This model's maximum context length is 8192 tokens. However, your messages resulted in 9000 tokens. Please reduce the length of the messages.",
  "invalid_request_error",
  "context_length_exceeded",
  "messages",
);

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
function localServerRefusal(
  emulations: readonly ServerEmulation[],
  body: Body,
): { status: number; body: unknown } | undefined {
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
      return { status: 400, body: openAiError(message, "invalid_request_error", null) };
    }
    const message =
      lacking === "tools"
        ? "tools param requires --jinja flag"
        : 'response_format type must be one of "text" or "json_object", but got: json_schema';
    return { status: 500, body: { error: { code: 500, message, type: "server_error" } } };
  }
  return undefined;
}

interface Completion {
  content: string | null;
  toolCalls: { id: string; name: string; arguments: string }[];
  finishReason: "stop" | "tool_calls";
}

function toCompletion(reply: ScriptedReply, reqId: number): Completion {
  switch (reply.kind) {
    case "text":
      return { content: reply.text, toolCalls: [], finishReason: "stop" };
    case "json":
      return { content: JSON.stringify(reply.value), toolCalls: [], finishReason: "stop" };
    case "raw":
      return { content: reply.content, toolCalls: [], finishReason: "stop" };
    case "tool_calls":
      return {
        content: reply.text ?? null,
        toolCalls: reply.calls.map((c, i) => ({
          id: c.id ?? `call_${reqId}_${i}_${randomBytes(4).toString("hex")}`,
          name: c.name,
          arguments: typeof c.arguments === "string" ? c.arguments : JSON.stringify(c.arguments ?? {}),
        })),
        finishReason: "tool_calls",
      };
    default:
      throw new Error(`not a completion reply: ${reply.kind}`);
  }
}

function usageFor(reply: ScriptedReply, body: Body, c: Completion) {
  const completionChars =
    (c.content?.length ?? 0) + c.toolCalls.reduce((n, t) => n + t.name.length + t.arguments.length, 0);
  const prompt_tokens = reply.usage?.prompt_tokens ?? estimateTokens(promptChars(body));
  const completion_tokens = reply.usage?.completion_tokens ?? estimateTokens(completionChars);
  return { prompt_tokens, completion_tokens, total_tokens: prompt_tokens + completion_tokens };
}

// Split into pieces of a few words each, keeping whitespace, so streams arrive as several deltas.
function splitWords(text: string, wordsPerPiece = 3): string[] {
  const tokens = text.match(/\S+\s*|\s+/g) ?? [];
  const pieces: string[] = [];
  for (let i = 0; i < tokens.length; i += wordsPerPiece)
    pieces.push(tokens.slice(i, i + wordsPerPiece).join(""));
  return pieces;
}

function splitFragments(s: string, count = 3): string[] {
  if (s.length <= 1) return [s];
  const size = Math.max(1, Math.ceil(s.length / count));
  const out: string[] = [];
  for (let i = 0; i < s.length; i += size) out.push(s.slice(i, i + size));
  return out;
}

function sendJson(
  res: http.ServerResponse,
  status: number,
  body: unknown,
  headers: Record<string, string> = {},
) {
  const text = typeof body === "string" ? body : JSON.stringify(body);
  res.writeHead(status, { "content-type": "application/json", ...headers });
  res.end(text);
}

async function readBody(req: http.IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString("utf8");
}

interface RuleState {
  rule: ScriptRule;
  next: number;
}

export async function startScriptedLlm(
  opts: {
    port?: number;
    /** A fixed delay before every reply (benchmarks: a model that answers every call in this time). */
    latencyMs?: number;
  } = {},
): Promise<ScriptedLlm> {
  let rules: RuleState[] = [];
  let emulations: ServerEmulation[] = [];
  const requests: RecordedRequest[] = [];
  let nextId = 1;
  // Timers of delayed replies, cleared on close so the process can exit.
  const timers = new Set<NodeJS.Timeout>();

  function pick(body: Body): { state: RuleState; index: number; reply: ScriptedReply } | undefined {
    for (const [index, state] of rules.entries()) {
      const { rule } = state;
      const exhausted = state.next >= rule.replies.length && !rule.repeat;
      if (exhausted || !matches(rule, body)) continue;
      const reply = rule.replies[Math.min(state.next, rule.replies.length - 1)];
      state.next++;
      return { state, index, reply };
    }
    return undefined;
  }

  function wait(ms: number, res: http.ServerResponse): Promise<boolean> {
    return new Promise((resolve) => {
      if (res.destroyed) return resolve(false);
      const t = setTimeout(() => {
        timers.delete(t);
        res.off("close", onClose);
        resolve(!res.destroyed);
      }, ms);
      timers.add(t);
      const onClose = () => {
        clearTimeout(t);
        timers.delete(t);
        resolve(false);
      };
      res.once("close", onClose);
    });
  }

  async function handleCompletion(req: http.IncomingMessage, res: http.ServerResponse) {
    // The call is in flight from its arrival: reading a long body (a report's findings) and parsing
    // it is this server's time, not the client's (the benchmarks measure the app's gaps from `at`).
    const arrivedAt = Date.now();
    const raw = await readBody(req);
    let body: Body;
    try {
      body = JSON.parse(raw);
    } catch {
      return sendJson(
        res,
        400,
        openAiError("We could not parse the JSON body of your request.", "invalid_request_error", null),
      );
    }
    const stream = body?.stream === true;
    const rec: RecordedRequest = { id: nextId++, at: arrivedAt, body, stream, status: 0, aborted: false };
    requests.push(rec);
    // A client that goes away before the response completed counts as an abort.
    res.on("close", () => {
      rec.endedAt = Date.now();
      if (!res.writableFinished) rec.aborted = true;
    });

    const refusal = localServerRefusal(emulations, body);
    if (refusal) {
      rec.status = refusal.status;
      rec.rule = "local-server-refusal";
      return sendJson(res, refusal.status, refusal.body);
    }

    const picked = pick(body);
    if (!picked) {
      rec.status = 500;
      return sendJson(
        res,
        500,
        openAiError(
          `scripted-llm: no scripted reply for request: ${summarize(body)}`,
          "server_error",
          "no_scripted_reply",
        ),
      );
    }
    const { reply } = picked;
    rec.rule = picked.state.rule.name ?? `rule#${picked.index}`;

    const delayMs = (reply.delayMs ?? 0) + (opts.latencyMs ?? 0);
    if (delayMs && !(await wait(delayMs, res))) return;

    switch (reply.kind) {
      case "hang":
        return; // the close listener records the abort
      case "error": {
        rec.status = reply.status;
        return sendJson(res, reply.status, reply.body ?? defaultErrorBody(reply.status), reply.headers);
      }
      case "context_length":
        rec.status = 400;
        return sendJson(res, 400, CONTEXT_LENGTH_BODY);
    }

    const completion = toCompletion(reply, rec.id);
    const usage = usageFor(reply, body, completion);
    const id = `chatcmpl-${randomBytes(12).toString("hex")}`;
    const created = Math.floor(Date.now() / 1000);
    const model = typeof body?.model === "string" ? body.model : "scripted";
    rec.status = 200;

    if (!stream) {
      const message: Record<string, unknown> = {
        role: "assistant",
        content: completion.content,
        refusal: null,
      };
      if (completion.toolCalls.length) {
        message.tool_calls = completion.toolCalls.map((t) => ({
          id: t.id,
          type: "function",
          function: { name: t.name, arguments: t.arguments },
        }));
      }
      return sendJson(res, 200, {
        id,
        object: "chat.completion",
        created,
        model,
        system_fingerprint: "fp_scripted",
        choices: [{ index: 0, message, logprobs: null, finish_reason: completion.finishReason }],
        usage,
      });
    }

    res.writeHead(200, {
      "content-type": "text/event-stream",
      "cache-control": "no-cache",
      connection: "keep-alive",
    });
    const chunk = (delta: Record<string, unknown>, finish: string | null = null) => ({
      id,
      object: "chat.completion.chunk",
      created,
      model,
      system_fingerprint: "fp_scripted",
      choices: [{ index: 0, delta, logprobs: null, finish_reason: finish }],
    });
    const events: unknown[] = [chunk({ role: "assistant", content: "", refusal: null })];
    if (completion.content) {
      for (const piece of splitWords(completion.content)) events.push(chunk({ content: piece }));
    }
    completion.toolCalls.forEach((t, index) => {
      events.push(
        chunk({
          tool_calls: [{ index, id: t.id, type: "function", function: { name: t.name, arguments: "" } }],
        }),
      );
      for (const frag of splitFragments(t.arguments)) {
        events.push(chunk({ tool_calls: [{ index, function: { arguments: frag } }] }));
      }
    });
    events.push(chunk({}, completion.finishReason));
    if (body?.stream_options?.include_usage) {
      events.push({ id, object: "chat.completion.chunk", created, model, choices: [], usage });
    }
    for (const e of events) {
      if (res.destroyed) return;
      res.write(`data: ${JSON.stringify(e)}\n\n`);
      // Yield between events so they really leave as separate writes.
      if (reply.chunkDelayMs) {
        if (!(await wait(reply.chunkDelayMs, res))) return;
      } else await new Promise((r) => setImmediate(r));
    }
    res.end("data: [DONE]\n\n");
  }

  async function handleControl(req: http.IncomingMessage, res: http.ServerResponse, path: string) {
    if (req.method === "GET" && path === "/__control/requests") return sendJson(res, 200, { requests });
    if (req.method === "POST" && path === "/__control/reset") {
      await readBody(req);
      api.reset();
      return sendJson(res, 200, { ok: true });
    }
    if (req.method === "POST" && path === "/__control/emulate") {
      try {
        api.emulate(emulateBodySchema.parse(JSON.parse(await readBody(req))).servers);
      } catch (err) {
        const message = err instanceof z.ZodError ? z.prettifyError(err) : "invalid JSON body";
        return sendJson(res, 400, { error: { code: "bad_request", message } });
      }
      return sendJson(res, 200, { ok: true });
    }
    if (req.method === "POST" && (path === "/__control/script" || path === "/__control/rules")) {
      let parsed: z.infer<typeof rulesBodySchema>;
      try {
        parsed = rulesBodySchema.parse(JSON.parse(await readBody(req)));
      } catch (err) {
        const message = err instanceof z.ZodError ? z.prettifyError(err) : "invalid JSON body";
        return sendJson(res, 400, { error: { code: "bad_request", message } });
      }
      const parsedRules = parsed.rules as ScriptRule[];
      if (path === "/__control/script") api.setScript(parsedRules);
      else api.addRules(parsedRules);
      return sendJson(res, 200, { ok: true, rules: rules.length });
    }
    return sendJson(res, 404, {
      error: { code: "not_found", message: `no control endpoint ${req.method} ${path}` },
    });
  }

  const server = http.createServer((req, res) => {
    const path = new URL(req.url ?? "/", "http://localhost").pathname;
    const handle = async () => {
      if (path.startsWith("/__control/")) return handleControl(req, res, path);
      if (req.method === "POST" && path === "/v1/chat/completions") return handleCompletion(req, res);
      if (req.method === "GET" && path === "/v1/models") {
        return sendJson(res, 200, {
          object: "list",
          data: [{ id: "scripted-model", object: "model", created: 1700000000, owned_by: "scripted-llm" }],
        });
      }
      return sendJson(
        res,
        404,
        openAiError(
          `scripted-llm: unknown endpoint ${req.method} ${path}`,
          "invalid_request_error",
          "not_found",
        ),
      );
    };
    handle().catch((err) => {
      if (!res.headersSent)
        sendJson(res, 500, openAiError(`scripted-llm: ${String(err)}`, "server_error", null));
      else res.destroy();
    });
  });

  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(opts.port ?? 0, "127.0.0.1", () => resolve());
  });
  const port = (server.address() as AddressInfo).port;

  const api: ScriptedLlm = {
    url: `http://127.0.0.1:${port}/v1`,
    port,
    setScript(newRules) {
      rules = validateRules(newRules).map((rule) => ({ rule, next: 0 }));
    },
    addRules(newRules) {
      rules.push(...validateRules(newRules).map((rule) => ({ rule, next: 0 })));
    },
    emulate(servers) {
      emulations = z.array(emulationSchema).parse(servers);
    },
    reset() {
      rules = [];
      emulations = [];
      requests.length = 0; // in place, so callers holding `requests` see the reset
    },
    requests,
    close() {
      for (const t of timers) clearTimeout(t);
      timers.clear();
      return new Promise((resolve, reject) => {
        server.close((err) => (err ? reject(err) : resolve()));
        server.closeAllConnections(); // hanging requests would otherwise keep close() waiting
      });
    },
  };
  return api;
}
