/**
 * Tools for a server that refuses the `tools` field (local-modes.ts): the tools and their input
 * schemas are described in the instructions, the conversation's tool calls and results are written
 * as plain text, and the model's reply is read back into tool calls validated against each tool's
 * schema, in the same shape the SDK gives for native tool calls (an invalid one as an invalid call).
 */
import {
  asSchema,
  type FinishReason,
  type ModelMessage,
  type ToolSet,
  type TypedToolCall,
  type TypedToolResult,
} from "ai";
import { lenientJson } from "./lenient-json.ts";

// The same few tool sets are described on every step of every researcher: described once each.
const protocols = new WeakMap<ToolSet, Promise<string>>();

/** The instructions that tell the model how to call tools by writing JSON. */
export function toolProtocol(tools: ToolSet): Promise<string> {
  let text = protocols.get(tools);
  if (!text) {
    text = describeTools(tools);
    protocols.set(tools, text);
  }
  return text;
}

async function describeTools(tools: ToolSet): Promise<string> {
  const lines: string[] = [];
  for (const [name, t] of Object.entries(tools)) {
    const schema = await asSchema(t.inputSchema).jsonSchema;
    lines.push(`- ${name}: ${t.description ?? ""}\n  arguments (JSON Schema): ${JSON.stringify(schema)}`);
  }
  return [
    "You can use these tools:",
    ...lines,
    'To use tools, reply with only a JSON object, no prose and no code fences: {"tool_calls": [{"name": "<tool>", "arguments": {…}}]}.',
    "The results come back in the next message. To answer without a tool, reply in plain text.",
  ].join("\n");
}

function partsText(content: ModelMessage["content"]): string {
  if (typeof content === "string") return content;
  return content
    .map((p) => {
      if (p.type === "text") return p.text;
      if (p.type === "tool-call")
        return JSON.stringify({ tool_calls: [{ name: p.toolName, arguments: p.input }] });
      if (p.type === "tool-result") {
        const out = p.output;
        const value = "value" in out ? out.value : out;
        return `Result of ${p.toolName}: ${typeof value === "string" ? value : JSON.stringify(value)}`;
      }
      return "";
    })
    .filter(Boolean)
    .join("\n");
}

/** The conversation with tool calls and results as text (a tool message becomes a user message). */
export function textModeMessages(messages: ModelMessage[]): ModelMessage[] {
  return messages.map((m): ModelMessage => {
    if (m.role === "tool") return { role: "user", content: partsText(m.content) };
    if (m.role === "assistant") return { role: "assistant", content: partsText(m.content) };
    return m;
  });
}

type RawCall = { name?: unknown; tool?: unknown; arguments?: unknown; input?: unknown };

function rawCalls(value: unknown): RawCall[] {
  if (!value || typeof value !== "object") return [];
  const v = value as { tool_calls?: unknown } & RawCall;
  if (Array.isArray(v.tool_calls)) return v.tool_calls.filter((c) => c && typeof c === "object");
  if (typeof v.name === "string" || typeof v.tool === "string") return [v];
  return [];
}

export type TextModeReply<TOOLS extends ToolSet> = {
  text: string;
  toolCalls: TypedToolCall<TOOLS>[];
  toolResults: TypedToolResult<TOOLS>[];
  finishReason: FinishReason;
  responseMessages: ModelMessage[];
};

/** Reads a reply written under the tool protocol: its tool calls (validated), or plain text. */
export async function parseToolReply<TOOLS extends ToolSet>(
  text: string,
  tools: TOOLS,
  idPrefix: string,
): Promise<TextModeReply<TOOLS>> {
  const calls = rawCalls(lenientJson(text));
  const toolCalls: TypedToolCall<TOOLS>[] = [];
  for (const [i, raw] of calls.entries()) {
    const toolName = String(raw.name ?? raw.tool);
    const input = raw.arguments ?? raw.input ?? {};
    const toolCallId = `${idPrefix}-${i}`;
    const t = tools[toolName];
    const checked = t ? await asSchema(t.inputSchema).validate?.(input) : undefined;
    if (t && (!checked || checked.success)) {
      const value = checked?.success ? checked.value : input;
      toolCalls.push({ type: "tool-call", toolCallId, toolName, input: value } as TypedToolCall<TOOLS>);
    } else {
      const error = t ? checked && !checked.success && checked.error : new Error(`no tool named ${toolName}`);
      toolCalls.push({ type: "tool-call", toolCallId, toolName, input, dynamic: true, invalid: true, error });
    }
  }
  if (!toolCalls.length) {
    return {
      text,
      toolCalls,
      toolResults: [],
      finishReason: "stop",
      responseMessages: [{ role: "assistant", content: text }],
    };
  }
  return {
    text: "",
    toolCalls,
    toolResults: [],
    finishReason: "tool-calls",
    responseMessages: [
      {
        role: "assistant",
        content: toolCalls.map((c) => ({
          type: "tool-call" as const,
          toolCallId: c.toolCallId,
          toolName: c.toolName,
          input: c.input,
        })),
      },
    ],
  };
}
