/**
 * Structured output for a server that refuses `json_schema` response formats (local-modes.ts): the
 * schema goes into the instructions, the request asks for a JSON object (`json_object`) or nothing
 * at all (`prompt`), and the reply is parsed and checked against the schema here.
 */
import { type LanguageModelUsage, Output } from "ai";
import { z } from "zod";
import { lenientJson } from "./lenient-json.ts";
import type { StructuredMode } from "./local-modes.ts";

// Converting a schema costs a few ms, and the same few are asked for on every run: once each.
const described = new WeakMap<z.ZodType, string>();

function schemaText(schema: z.ZodType): string {
  let text = described.get(schema);
  if (!text) {
    text = JSON.stringify(z.toJSONSchema(schema, { io: "input", unrepresentable: "any" }));
    described.set(schema, text);
  }
  return text;
}

/** The instructions with the schema the reply must match (and its name, as the request would carry it). */
export function instructionsWithSchema(
  instructions: string | undefined,
  schema: z.ZodType,
  name?: string,
): string {
  const ask =
    `Reply with only a JSON object${name ? ` ("${name}")` : ""}, no prose and no code fences, ` +
    `that matches this JSON Schema:\n${schemaText(schema)}`;
  return instructions ? `${instructions}\n\n${ask}` : ask;
}

/** The `output` for a mode: the SDK's JSON mode (response_format json_object) or none. */
export function jsonModeOutput(mode: Exclude<StructuredMode, "json_schema">, name?: string) {
  return mode === "json_object" ? Output.json({ name }) : undefined;
}

export type JsonAnswer<T> =
  | { ok: true; object: T; text: string; usage: LanguageModelUsage }
  | { ok: false; text: string; issues: string; usage: LanguageModelUsage };

/** Reads a JSON-mode reply: the object inside it, checked against the schema. */
export function parseJsonAnswer<T>(
  text: string,
  schema: z.ZodType<T>,
  usage: LanguageModelUsage,
): JsonAnswer<T> {
  const value = lenientJson(text);
  if (value === undefined) return { ok: false, text, issues: "the reply held no JSON object", usage };
  const parsed = schema.safeParse(value);
  if (parsed.success) return { ok: true, object: parsed.data, text, usage };
  return { ok: false, text, issues: `it did not match the schema:\n${z.prettifyError(parsed.error)}`, usage };
}
