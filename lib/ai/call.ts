import {
  type FinishReason,
  generateId,
  generateText,
  type ModelMessage,
  type StopCondition,
  streamText,
  type ToolChoice,
  type ToolSet,
  type TypedToolCall,
  type TypedToolResult,
} from "ai";
import { abortError } from "./errors.ts";
import {
  type CallDeps,
  type GenerationOptions,
  type Invocation,
  type PromptInput,
  runModelCall,
} from "./model-call.ts";
import type { Role } from "./roles.ts";
import { parseToolReply, textModeMessages, toolProtocol } from "./tool-text-mode.ts";
import { type TokenUsage, toTokenUsage } from "./usage.ts";

export type {
  CallDeps,
  GenerationOptions,
  ModelFailoverEvent,
  ModelRetryEvent,
  PromptInput,
} from "./model-call.ts";
export { runModelCall } from "./model-call.ts";

export type TextCallOptions<TOOLS extends ToolSet = ToolSet> = PromptInput &
  GenerationOptions & {
    tools?: TOOLS;
    toolChoice?: ToolChoice<TOOLS>;
    /** Only meaningful with tools that have `execute`; default is a single step. */
    stopWhen?: StopCondition<TOOLS> | StopCondition<TOOLS>[];
    /**
     * Stream the answer: called with each text delta. A failed stream is retried only before
     * its first delta, so a consumer never sees text twice.
     */
    onTextDelta?: (delta: string) => void;
  };

export type TextCallResult<TOOLS extends ToolSet = ToolSet> = {
  text: string;
  toolCalls: TypedToolCall<TOOLS>[];
  toolResults: TypedToolResult<TOOLS>[];
  finishReason: FinishReason;
  /** The assistant/tool messages produced, ready to append to a conversation. */
  responseMessages: ModelMessage[];
  usage: TokenUsage;
  /** `provider:model-id` that answered. */
  model: string;
  attempts: number;
};

// The SDK's option object is a union over prompt/messages; we build it from our own narrower type.
type GenerateArgs<TOOLS extends ToolSet> = Parameters<typeof generateText<TOOLS>>[0];
type StreamArgs<TOOLS extends ToolSet> = Parameters<typeof streamText<TOOLS>>[0];

export function sdkArgs<TOOLS extends ToolSet>(opts: TextCallOptions<TOOLS>, inv: Invocation) {
  return {
    model: inv.model,
    instructions: opts.instructions,
    ...(opts.messages ? { messages: opts.messages } : { prompt: opts.prompt as string }),
    tools: opts.tools,
    toolChoice: opts.toolChoice,
    stopWhen: opts.stopWhen,
    maxOutputTokens: opts.maxOutputTokens,
    temperature: opts.temperature,
    providerOptions: opts.providerOptions,
    // Our retry layer is the only one: it honours Retry-After, the limiter and the budget.
    maxRetries: 0,
    abortSignal: inv.signal,
    telemetry: inv.telemetry,
  };
}

/**
 * Call a role for text (optionally with tools, optionally streamed). Throws ContextWindowError,
 * BudgetExceededError, ModelConfigError, ModelCallError, or the abort reason.
 */
export async function callText<TOOLS extends ToolSet = ToolSet>(
  deps: CallDeps,
  role: Role,
  opts: TextCallOptions<TOOLS>,
): Promise<TextCallResult<TOOLS>> {
  const onDelta = opts.onTextDelta;
  let streamed = false;
  const uses = { tools: Boolean(opts.tools && Object.keys(opts.tools).length) };
  const { value, spec, attempts } = await runModelCall(
    deps,
    role,
    { ...opts, uses, canRetry: () => !streamed },
    async (inv) => {
      if (uses.tools && inv.modes.tools === "prompt") {
        const r = await toolsInText(opts, inv);
        if (onDelta && r.text) onDelta(r.text);
        return r;
      }
      if (!onDelta) {
        const r = await generateText(sdkArgs(opts, inv) as GenerateArgs<TOOLS>);
        return {
          text: r.text,
          toolCalls: r.toolCalls,
          toolResults: r.toolResults,
          finishReason: r.finishReason,
          responseMessages: r.responseMessages as ModelMessage[],
          usage: r.usage,
        };
      }
      const r = streamText({
        ...(sdkArgs(opts, inv) as StreamArgs<TOOLS>),
        // Errors arrive as stream parts and are thrown below; the default handler would only log them.
        onError: () => {},
      });
      for await (const part of r.fullStream) {
        inv.touch();
        if (part.type === "text-delta") {
          streamed = true;
          onDelta(part.text);
        } else if (part.type === "error") {
          throw part.error;
        } else if (part.type === "abort") {
          throw abortError(inv.signal);
        }
      }
      const [text, toolCalls, toolResults, finishReason, responseMessages, usage] = await Promise.all([
        r.text,
        r.toolCalls,
        r.toolResults,
        r.finishReason,
        r.responseMessages,
        r.usage,
      ]);
      return {
        text,
        toolCalls,
        toolResults,
        finishReason,
        responseMessages: responseMessages as ModelMessage[],
        usage,
      };
    },
    (v) => v.usage,
  );
  return { ...value, usage: toTokenUsage(value.usage), model: spec.id, attempts };
}

/**
 * A tool call for a server that refuses the `tools` field: the tools described in the
 * instructions, the conversation in text, the reply read back into tool calls (tool-text-mode.ts).
 */
async function toolsInText<TOOLS extends ToolSet>(opts: TextCallOptions<TOOLS>, inv: Invocation) {
  const tools = opts.tools as TOOLS;
  const instructions = [opts.instructions, await toolProtocol(tools)].filter(Boolean).join("\n\n");
  const messages: ModelMessage[] = opts.messages
    ? textModeMessages(opts.messages)
    : [{ role: "user", content: opts.prompt as string }];
  const r = await generateText({
    ...sdkArgs({ ...opts, instructions, tools: undefined, toolChoice: undefined, stopWhen: undefined }, inv),
    prompt: undefined,
    messages,
  } as GenerateArgs<ToolSet>);
  const reply = await parseToolReply(r.text, tools, `call_${generateId()}`);
  return { ...reply, usage: r.usage };
}
