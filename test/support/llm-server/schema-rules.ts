/**
 * Which JSON Schemas each provider accepts where it constrains decoding: its documented rules are
 * the table in test/support/provider-rules.ts (with its sources). A plain (non-strict) OpenAI or
 * Anthropic tool only needs an object schema; Gemini reads every function's parameters with its
 * JSON Schema subset.
 */
import { type SchemaProvider, schemaViolations } from "../provider-rules.ts";
import { isObject } from "./wire.ts";

/** Where the schema is used: a structured output or a strict tool (decoding is constrained), or a plain tool. */
export type SchemaUse = "output" | "strict-tool" | "tool";

export function schemaProblems(provider: SchemaProvider, use: SchemaUse, schema: unknown): string[] {
  if (use === "tool" && provider !== "google") {
    return isObject(schema) && schema.type === "object"
      ? []
      : ["#: the input schema must have type 'object'"];
  }
  return schemaViolations(provider, schema);
}
