/**
 * The scripted server's script: replies per request, matched by what the request asks (model,
 * system prompt, last user text, tools offered, structured-output schema name), the same whatever
 * wire format the request came in. Validated with zod so a typo in a test fails loudly.
 */
import { randomBytes } from "node:crypto";
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
  /** Token counts to report (named as in chat completions; each wire format reports them its way). */
  usage?: { prompt_tokens: number; completion_tokens: number };
};

export interface RuleMatch {
  model?: string;
  system?: string;
  user?: string;
  any?: string;
  tool?: string;
  /** The structured output's name: the wire's schema name, or the schema's `title` where the wire has none. */
  schema?: string;
}

export interface ScriptRule {
  name?: string;
  match?: RuleMatch;
  replies: ScriptedReply[];
  repeat?: boolean;
}

/** What every wire format's request is reduced to, for matching, summaries and the request log. */
export interface WireRequest {
  model: string;
  system: string;
  lastUser: string;
  /** The whole conversation serialised, for `any` matches. */
  transcript: string;
  tools: string[];
  schemaName?: string;
  /** The response format asked for when there is no schema (e.g. json_object). */
  responseFormat?: string;
  stream: boolean;
  messages: number;
  /** Characters of prompt text, for estimated usage. */
  promptChars: number;
}

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

export const rulesBodySchema = z.strictObject({ rules: z.array(ruleSchema) });

export function validateRules(rules: unknown): ScriptRule[] {
  return z.array(ruleSchema).parse(rules) as ScriptRule[];
}

export function matches(rule: ScriptRule, req: WireRequest): boolean {
  const m = rule.match;
  if (!m) return true;
  if (m.model !== undefined && !req.model.includes(m.model)) return false;
  if (m.system !== undefined && !req.system.includes(m.system)) return false;
  if (m.user !== undefined && !req.lastUser.includes(m.user)) return false;
  if (m.any !== undefined && !req.transcript.includes(m.any)) return false;
  if (m.tool !== undefined && !req.tools.some((n) => n.includes(m.tool as string))) return false;
  if (m.schema !== undefined && !(req.schemaName ?? "").includes(m.schema)) return false;
  return true;
}

function clip(s: string, n: number): string {
  const flat = s.replace(/\s+/g, " ").trim();
  return flat.length > n ? `${flat.slice(0, n)}…` : flat;
}

/** A one-line description of the request, so a "no scripted reply" failure says what was asked. */
export function summarize(req: WireRequest): string {
  const parts = [`model=${JSON.stringify(req.model)}`];
  if (req.system) parts.push(`system=${JSON.stringify(clip(req.system, 120))}`);
  parts.push(`user=${JSON.stringify(clip(req.lastUser, 160))}`);
  if (req.tools.length) parts.push(`tools=[${req.tools.join(",")}]`);
  if (req.schemaName) parts.push(`schema=${req.schemaName}`);
  else if (req.responseFormat) parts.push(`response_format=${req.responseFormat}`);
  parts.push(`messages=${req.messages}`);
  if (req.stream) parts.push("stream=true");
  return parts.join(" ");
}

/** A completion in no particular wire format: what each format renders its own way. */
export interface Answer {
  text: string | null;
  /** The reply was a structured-output object (so a forced JSON tool can carry it). */
  json?: unknown;
  toolCalls: { id: string; name: string; arguments: string }[];
  usage: { input: number; output: number };
}

export type AnswerReply = Extract<ScriptedReply, { kind: "text" | "json" | "raw" | "tool_calls" }>;

const estimateTokens = (chars: number) => Math.ceil(chars / 4);

export function toAnswer(reply: AnswerReply, req: WireRequest, callId: (i: number) => string): Answer {
  let answer: Omit<Answer, "usage">;
  switch (reply.kind) {
    case "text":
      answer = { text: reply.text, toolCalls: [] };
      break;
    case "json":
      answer = { text: JSON.stringify(reply.value), json: reply.value, toolCalls: [] };
      break;
    case "raw":
      answer = { text: reply.content, toolCalls: [] };
      break;
    case "tool_calls":
      answer = {
        text: reply.text ?? null,
        toolCalls: reply.calls.map((c, i) => ({
          id: c.id ?? callId(i),
          name: c.name,
          arguments: typeof c.arguments === "string" ? c.arguments : JSON.stringify(c.arguments ?? {}),
        })),
      };
      break;
  }
  const outputChars =
    (answer.text?.length ?? 0) + answer.toolCalls.reduce((n, t) => n + t.name.length + t.arguments.length, 0);
  return {
    ...answer,
    usage: {
      input: reply.usage?.prompt_tokens ?? estimateTokens(req.promptChars),
      output: reply.usage?.completion_tokens ?? estimateTokens(outputChars),
    },
  };
}

/** A tool call's arguments as an object, for formats that carry them parsed; a scripted malformed call stays raw text. */
export function parsedArguments(args: string): unknown {
  try {
    return JSON.parse(args);
  } catch {
    return args;
  }
}

export const randomId = (prefix: string, bytes = 12) => `${prefix}${randomBytes(bytes).toString("hex")}`;

/** Pieces of a few words each, keeping whitespace, so streams arrive as several deltas. */
export function splitWords(text: string, wordsPerPiece = 3): string[] {
  const tokens = text.match(/\S+\s*|\s+/g) ?? [];
  const pieces: string[] = [];
  for (let i = 0; i < tokens.length; i += wordsPerPiece)
    pieces.push(tokens.slice(i, i + wordsPerPiece).join(""));
  return pieces;
}

export function splitFragments(s: string, count = 3): string[] {
  if (s.length <= 1) return [s];
  const size = Math.max(1, Math.ceil(s.length / count));
  const out: string[] = [];
  for (let i = 0; i < s.length; i += size) out.push(s.slice(i, i + size));
  return out;
}
