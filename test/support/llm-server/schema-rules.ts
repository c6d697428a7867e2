/**
 * Which JSON Schemas each provider accepts where it constrains decoding to them: OpenAI structured
 * outputs and strict tools, Anthropic structured outputs and strict tools, Gemini
 * `responseJsonSchema`. The scripted server refuses a request whose schema breaks these, worded as
 * the provider words it.
 *
 * Sources (read 2026-05):
 * - OpenAI: https://platform.openai.com/docs/guides/structured-outputs#supported-schemas
 * - Anthropic: https://docs.claude.com/en/docs/build-with-claude/structured-outputs#json-schema-limitations
 * - Gemini: https://ai.google.dev/gemini-api/docs/structured-output#json-schema-support
 */
import { isObject } from "./wire.ts";

export type SchemaProvider = "openai" | "anthropic" | "google";
/** Where the schema is used: a structured output or a strict tool (decoding is constrained), or a plain tool. */
export type SchemaUse = "output" | "strict-tool" | "tool";

const ANNOTATIONS = ["title", "description", "$schema", "$id", "$comment", "examples"];

/** Keywords each provider documents as supported in a constrained schema; any other is refused. */
const SUPPORTED: Record<SchemaProvider, Set<string>> = {
  openai: new Set([
    ...ANNOTATIONS,
    "type",
    "properties",
    "required",
    "additionalProperties",
    "items",
    "enum",
    "const",
    "anyOf",
    "$ref",
    "$defs",
    "definitions",
    "pattern",
    "format",
    "minimum",
    "maximum",
    "exclusiveMinimum",
    "exclusiveMaximum",
    "multipleOf",
    "minItems",
    "maxItems",
  ]),
  anthropic: new Set([
    ...ANNOTATIONS,
    "type",
    "properties",
    "required",
    "additionalProperties",
    "items",
    "enum",
    "const",
    "anyOf",
    "allOf",
    "$ref",
    "$defs",
    "definitions",
    "default",
    "format",
    "minItems",
  ]),
  google: new Set([
    ...ANNOTATIONS,
    "type",
    "properties",
    "required",
    "additionalProperties",
    "items",
    "prefixItems",
    "enum",
    "anyOf",
    "$ref",
    "$defs",
    "$anchor",
    "format",
    "minimum",
    "maximum",
    "minItems",
    "maxItems",
    "propertyOrdering",
  ]),
};

/**
 * The rules `schema` breaks for `provider` when used as `use`, each naming where in the schema.
 * A plain (non-strict) tool's input schema is only checked for being an object schema.
 */
export function schemaProblems(provider: SchemaProvider, use: SchemaUse, schema: unknown): string[] {
  if (!isObject(schema)) return ["the schema must be a JSON object"];
  if (use === "tool") return schema.type === "object" ? [] : ["the input schema must have type 'object'"];
  const problems: string[] = [];
  if (schema.type !== "object") problems.push("the root schema must have type 'object'");
  walk(provider, schema, [], problems);
  return problems;
}

function walk(provider: SchemaProvider, node: unknown, path: string[], problems: string[]): void {
  if (!isObject(node)) return;
  const at = path.length ? `(${path.map((p) => `'${p}'`).join(", ")})` : "(root)";
  for (const key of Object.keys(node)) {
    if (!SUPPORTED[provider].has(key)) problems.push(`In context=${at}, '${key}' is not permitted.`);
  }
  if (provider === "anthropic" && typeof node.minItems === "number" && node.minItems > 1) {
    problems.push(`In context=${at}, minItems values other than 0 or 1 are not supported.`);
  }
  const isObjectNode = node.type === "object" || isObject(node.properties);
  if (isObjectNode && provider !== "google" && node.additionalProperties !== false) {
    problems.push(`In context=${at}, 'additionalProperties' is required to be supplied and to be false.`);
  }
  if (isObjectNode && provider === "openai" && isObject(node.properties)) {
    const required = new Set(Array.isArray(node.required) ? node.required : []);
    const missing = Object.keys(node.properties).filter((k) => !required.has(k));
    if (missing.length) {
      problems.push(
        `In context=${at}, 'required' is required to be supplied and to be an array including every key in properties. Missing '${missing[0]}'.`,
      );
    }
  }
  if (isObject(node.properties)) {
    for (const [k, v] of Object.entries(node.properties))
      walk(provider, v, [...path, "properties", k], problems);
  }
  if (node.items !== undefined) walk(provider, node.items, [...path, "items"], problems);
  for (const list of ["anyOf", "allOf", "oneOf", "prefixItems"]) {
    const members = node[list];
    if (!Array.isArray(members)) continue;
    for (const [i, m] of members.entries()) walk(provider, m, [...path, list, String(i)], problems);
  }
  for (const defs of ["$defs", "definitions"]) {
    const table = node[defs];
    if (isObject(table))
      for (const [k, v] of Object.entries(table)) walk(provider, v, [...path, defs, k], problems);
  }
}
