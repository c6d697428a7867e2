import { generateText, type ModelMessage, NoObjectGeneratedError, NoOutputGeneratedError, Output } from "ai";
import { z } from "zod";
import { type CallDeps, type GenerationOptions, type PromptInput, runModelCall } from "./call.ts";
import { instructionsWithSchema, jsonModeOutput, parseJsonAnswer } from "./json-mode.ts";
import { lenientJson } from "./lenient-json.ts";
import type { Role } from "./roles.ts";
import { type TokenUsage, toTokenUsage } from "./usage.ts";

export type ObjectCallOptions<T> = PromptInput &
  GenerationOptions & {
    schema: z.ZodType<T>;
    /**
     * Schema name and description sent to providers that support named JSON schemas; the name is
     * also the schema's `title`, so providers without a name field (Anthropic, Gemini) receive it.
     */
    schemaName?: string;
    schemaDescription?: string;
    /** Re-asks after an unusable answer, each quoting the validation error (default 2, at most 2). */
    maxRepairs?: number;
  };

/** A schema with the name it is sent under (a literal at each call: test/provider-schemas.test.ts reads them). */
export type NamedSchema<T> = Pick<ObjectCallOptions<T>, "schema" | "schemaName">;

export type ObjectCallResult<T> =
  | { ok: true; value: T; attempts: number; repairs: number; model: string; usage: TokenUsage }
  | { ok: false; error: StructuredOutputError };

/** The model answered, but never with a valid object: the caller falls back (e.g. to a heuristic). */
export class StructuredOutputError extends Error {
  readonly role: string;
  readonly model: string;
  /** Model answers received (first ask plus re-asks). */
  readonly attempts: number;
  readonly lastText: string | undefined;
  /** Why the last answer was rejected (JSON syntax or schema issues). */
  readonly issues: string;

  constructor(opts: { role: string; model: string; attempts: number; lastText?: string; issues: string }) {
    super(
      `${opts.role} model ${opts.model} gave no valid object after ${opts.attempts} answers: ${opts.issues}`,
    );
    this.name = "StructuredOutputError";
    this.role = opts.role;
    this.model = opts.model;
    this.attempts = opts.attempts;
    this.lastText = opts.lastText;
    this.issues = opts.issues;
  }
}

const MAX_REPAIRS = 2;

function describeFailure(error: unknown): string {
  const cause = error instanceof Error ? error.cause : undefined;
  if (cause instanceof Error && "value" in cause && cause.cause instanceof z.ZodError) {
    return `it did not match the schema:\n${z.prettifyError(cause.cause)}`;
  }
  if (cause instanceof Error) return cause.message;
  return error instanceof Error ? error.message : String(error);
}

function repairRequest(issues: string): string {
  return (
    `Your previous reply could not be used: ${issues}\n\n` +
    "Reply again with only the corrected JSON object that matches the requested schema: no prose, no code fences."
  );
}

/**
 * One `Output.object` per schema, name and description, kept: the SDK turns the zod schema into JSON
 * Schema once per Output (several ms for a plan or an assessment), and the same few schemas are
 * asked for on every run, several of them between two model calls on the run's critical path.
 */
const outputs = new WeakMap<object, Map<string, unknown>>();

export function outputFor<T>(schema: ObjectCallOptions<T>["schema"], name?: string, description?: string) {
  let byLabel = outputs.get(schema);
  if (!byLabel) {
    byLabel = new Map();
    outputs.set(schema, byLabel);
  }
  const label = JSON.stringify([name ?? null, description ?? null]);
  let output = byLabel.get(label) as ReturnType<typeof Output.object<T>> | undefined;
  if (!output) {
    const titled = name ? schema.meta({ title: name }) : schema;
    output = Output.object({ schema: titled, name, description });
    byLabel.set(label, output);
  }
  return output;
}

/**
 * Call a role for a zod-typed object. An unparseable or invalid answer is re-asked (at most
 * twice) with the validation error; after that the result is `{ ok: false }`. Call failures
 * (context window, budget, provider errors, cancellation) are thrown as by callText.
 */
export async function callObject<T>(
  deps: CallDeps,
  role: Role,
  opts: ObjectCallOptions<T>,
): Promise<ObjectCallResult<T>> {
  const maxRepairs = Math.max(0, Math.min(MAX_REPAIRS, opts.maxRepairs ?? MAX_REPAIRS));
  const output = outputFor(opts.schema, opts.schemaName, opts.schemaDescription);
  const base: ModelMessage[] = opts.messages ?? [{ role: "user", content: opts.prompt }];
  let messages = base;
  let lastText: string | undefined;
  let issues = "";
  let model = "";
  const usage: TokenUsage = { inputTokens: 0, outputTokens: 0, cachedInputTokens: 0, reasoningTokens: 0 };
  const addUsage = (u: TokenUsage) => {
    usage.inputTokens += u.inputTokens;
    usage.outputTokens += u.outputTokens;
    usage.cachedInputTokens += u.cachedInputTokens;
    usage.reasoningTokens += u.reasoningTokens;
  };

  for (let answer = 1; answer <= maxRepairs + 1; answer++) {
    const { value, spec } = await runModelCall(
      deps,
      role,
      { ...opts, uses: { structured: true } },
      async (inv) => {
        const mode = inv.modes.structured;
        try {
          const r = await generateText({
            model: inv.model,
            instructions:
              mode === "json_schema"
                ? opts.instructions
                : instructionsWithSchema(opts.instructions, opts.schema, opts.schemaName),
            messages,
            output: mode === "json_schema" ? output : jsonModeOutput(mode, opts.schemaName),
            maxOutputTokens: opts.maxOutputTokens,
            temperature: opts.temperature,
            providerOptions: opts.providerOptions,
            maxRetries: 0,
            abortSignal: inv.signal,
            telemetry: inv.telemetry,
          });
          if (mode !== "json_schema") return parseJsonAnswer(r.text, opts.schema, r.usage);
          return { ok: true as const, object: r.output as T, text: r.text, usage: r.usage };
        } catch (e) {
          // A bad answer is a result to repair, not a transport failure to retry.
          if (NoObjectGeneratedError.isInstance(e)) {
            return { ok: false as const, text: e.text, issues: describeFailure(e), usage: e.usage };
          }
          if (NoOutputGeneratedError.isInstance(e)) {
            return { ok: false as const, text: undefined, issues: "the reply was empty", usage: undefined };
          }
          throw e;
        }
      },
      (v) => v.usage,
    );
    model = spec.id;
    addUsage(toTokenUsage(value.usage));
    if (value.ok)
      return { ok: true, value: value.object, attempts: answer, repairs: answer - 1, model, usage };

    lastText = value.text;
    issues = value.issues;
    if (lastText) {
      const parsed = opts.schema.safeParse(lenientJson(lastText));
      if (parsed.success)
        return { ok: true, value: parsed.data, attempts: answer, repairs: answer - 1, model, usage };
    }
    messages = [
      ...base,
      { role: "assistant", content: lastText ?? "" },
      { role: "user", content: repairRequest(issues) },
    ];
  }
  return {
    ok: false,
    error: new StructuredOutputError({ role, model, attempts: maxRepairs + 1, lastText, issues }),
  };
}
