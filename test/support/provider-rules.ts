/**
 * What each model provider documents about the JSON Schema it accepts as a structured output and as
 * a strict tool's input, one table per provider, and `schemaViolations` to check a schema (as the
 * provider's AI SDK package sends it) against that table. Test-only; the scripted model servers may
 * import it to answer a violation the way the provider would.
 *
 * The tables list what a provider ACCEPTS: a keyword missing from a table is a violation, so a
 * keyword a provider never documented counts against us until someone reads that it is allowed.
 * `$schema` is accepted everywhere: every AI SDK package sends zod's draft-07 marker, and the
 * providers read it as an annotation.
 */

export type SchemaProvider = "openai" | "anthropic" | "google";

export interface ProviderRules {
  /** The documentation the table is written from, and the day it was read. */
  sources: readonly { page: string; url: string; read: string }[];
  /** Keywords allowed on any node. */
  common: readonly string[];
  /** Keywords allowed only on a node of that type. */
  byType: Readonly<Record<"string" | "number" | "array" | "object", readonly string[]>>;
  /** Values of `format` on strings. */
  stringFormats: readonly string[];
  /** The root must be a plain object (not anyOf). */
  rootObject: boolean;
  /** Every key of `properties` listed in `required`. */
  allRequired: boolean;
  /** `additionalProperties: false` on every object. */
  closedObjects: boolean;
  /** Which JSON types an enum's values may have. */
  enumValueTypes: readonly string[];
  /** `minItems` above this is refused (Anthropic: 0 or 1). */
  maxMinItems?: number;
  /** Size limits the provider states. */
  limits: {
    depth?: number;
    properties?: number;
    enumValues?: number;
    optionalProperties?: number;
    unionProperties?: number;
  };
}

const annotations = ["$schema", "title", "description"];

export const providerRules: Readonly<Record<SchemaProvider, ProviderRules>> = {
  openai: {
    sources: [
      {
        page: 'OpenAI, Structured model outputs: "Supported schemas" (strict mode)',
        url: "https://platform.openai.com/docs/guides/structured-outputs#supported-schemas",
        read: "2026-11-26",
      },
      {
        page: 'OpenAI, Function calling: "Strict mode" (same subset for a strict function\'s parameters)',
        url: "https://platform.openai.com/docs/guides/function-calling#strict-mode",
        read: "2026-11-26",
      },
    ],
    common: [...annotations, "type", "enum", "const", "anyOf", "$ref", "$defs", "definitions"],
    byType: {
      string: ["pattern", "format"],
      number: ["multipleOf", "maximum", "exclusiveMaximum", "minimum", "exclusiveMinimum"],
      array: ["items", "minItems", "maxItems"],
      object: ["properties", "required", "additionalProperties"],
    },
    stringFormats: ["date-time", "time", "date", "duration", "email", "hostname", "ipv4", "ipv6", "uuid"],
    rootObject: true,
    allRequired: true,
    closedObjects: true,
    enumValueTypes: ["string", "number", "boolean", "null"],
    limits: { depth: 10, properties: 5000, enumValues: 1000 },
  },
  anthropic: {
    sources: [
      {
        page: 'Anthropic, Structured outputs: "JSON Schema limitations" (output_config.format)',
        url: "https://platform.claude.com/docs/en/build-with-claude/structured-outputs#json-schema-limitations",
        read: "2026-11-26",
      },
      {
        page: "Anthropic, Strict tool use (tools[].strict: the same limitations, and the schema complexity limits)",
        url: "https://platform.claude.com/docs/en/agents-and-tools/tool-use/strict-tool-use",
        read: "2026-11-26",
      },
    ],
    common: [
      ...annotations,
      "type",
      "enum",
      "const",
      "anyOf",
      "allOf",
      "$ref",
      "$defs",
      "definitions",
      "default",
    ],
    byType: {
      string: ["format", "pattern"],
      number: [],
      array: ["items", "minItems"],
      object: ["properties", "required", "additionalProperties"],
    },
    stringFormats: [
      "date-time",
      "time",
      "date",
      "duration",
      "email",
      "hostname",
      "uri",
      "ipv4",
      "ipv6",
      "uuid",
    ],
    rootObject: false,
    allRequired: false,
    closedObjects: true,
    enumValueTypes: ["string", "number", "boolean", "null"],
    maxMinItems: 1,
    limits: { optionalProperties: 24, unionProperties: 16 },
  },
  google: {
    sources: [
      {
        page: 'Google, Gemini API Structured output: "JSON Schema support" (generationConfig.responseJsonSchema)',
        url: "https://ai.google.dev/gemini-api/docs/structured-output#json-schema-support",
        read: "2026-11-26",
      },
      {
        page: "Google, Gemini API Function calling (functionDeclarations[].parametersJsonSchema)",
        url: "https://ai.google.dev/gemini-api/docs/function-calling",
        read: "2026-11-26",
      },
    ],
    common: [
      ...annotations,
      "type",
      "enum",
      "anyOf",
      "oneOf",
      "$id",
      "$ref",
      "$defs",
      "$anchor",
      "format",
      "propertyOrdering",
    ],
    byType: {
      string: [],
      number: ["minimum", "maximum"],
      array: ["items", "prefixItems", "minItems", "maxItems"],
      object: ["properties", "required", "additionalProperties"],
    },
    stringFormats: ["date-time", "date", "time"],
    rootObject: false,
    allRequired: false,
    closedObjects: false,
    enumValueTypes: ["string", "number"],
    limits: {},
  },
};

type Node = Record<string, unknown>;

const isNode = (v: unknown): v is Node => typeof v === "object" && v !== null && !Array.isArray(v);

function typesOf(node: Node): string[] {
  const t = node.type;
  const list = Array.isArray(t) ? t.map(String) : typeof t === "string" ? [t] : [];
  return list.map((x) => (x === "integer" ? "number" : x));
}

function jsonType(v: unknown): string {
  if (v === null) return "null";
  return Array.isArray(v) ? "array" : typeof v;
}

/** A property that may be null: a type list or an anyOf with a null branch. */
function isUnion(node: Node): boolean {
  return (Array.isArray(node.type) && node.type.length > 1) || Array.isArray(node.anyOf);
}

/**
 * Every way `schema` breaks the provider's documented rules, one readable line each (`path: what`);
 * empty when the provider accepts it.
 */
export function schemaViolations(provider: SchemaProvider, schema: unknown): string[] {
  const rules = providerRules[provider];
  const out: string[] = [];
  const counts = { properties: 0, enumValues: 0, optional: 0, unions: 0 };
  if (!isNode(schema)) return ["#: the schema is not an object"];
  if (rules.rootObject && (schema.type !== "object" || schema.anyOf !== undefined)) {
    out.push("#: the root must be an object, not anyOf");
  }

  const visit = (node: unknown, path: string, depth: number) => {
    if (typeof node === "boolean") return;
    if (!isNode(node)) {
      out.push(`${path}: not a schema`);
      return;
    }
    if (rules.limits.depth && depth > rules.limits.depth) {
      out.push(`${path}: nested deeper than ${rules.limits.depth} levels`);
    }
    const types = typesOf(node);
    const allowed = new Set([...rules.common, ...types.flatMap((t) => rules.byType[t as "string"] ?? [])]);
    for (const key of Object.keys(node)) {
      if (!allowed.has(key)) out.push(`${path}: ${key} is not supported`);
    }
    checkValues(node, path);
    if (types.includes("object") || isNode(node.properties)) checkObject(node, path, depth);
    if (node.items !== undefined) visit(node.items, `${path}/items`, depth + 1);
    for (const key of ["anyOf", "oneOf", "allOf", "prefixItems"] as const) {
      const branches = node[key];
      if (Array.isArray(branches))
        for (const [i, b] of branches.entries()) visit(b, `${path}/${key}/${i}`, depth);
    }
    for (const key of ["$defs", "definitions"] as const) {
      const defs = node[key];
      if (isNode(defs))
        for (const [name, d] of Object.entries(defs)) visit(d, `${path}/${key}/${name}`, depth);
    }
  };

  const checkValues = (node: Node, path: string) => {
    if (typeof node.format === "string" && !rules.stringFormats.includes(node.format)) {
      out.push(`${path}: format "${node.format}" is not supported`);
    }
    if (Array.isArray(node.enum)) {
      counts.enumValues += node.enum.length;
      const bad = node.enum.filter((v) => !rules.enumValueTypes.includes(jsonType(v)));
      if (bad.length) out.push(`${path}: enum values of type ${jsonType(bad[0])} are not supported`);
    }
    if (
      rules.maxMinItems !== undefined &&
      typeof node.minItems === "number" &&
      node.minItems > rules.maxMinItems
    ) {
      out.push(`${path}: minItems above ${rules.maxMinItems} is not supported`);
    }
  };

  const checkObject = (node: Node, path: string, depth: number) => {
    const props = isNode(node.properties) ? node.properties : {};
    const required = new Set(Array.isArray(node.required) ? node.required.map(String) : []);
    if (rules.closedObjects && node.additionalProperties !== false) {
      out.push(`${path}: additionalProperties must be false`);
    }
    if (isNode(node.additionalProperties))
      visit(node.additionalProperties, `${path}/additionalProperties`, depth + 1);
    for (const [key, value] of Object.entries(props)) {
      counts.properties++;
      if (!required.has(key)) {
        counts.optional++;
        if (rules.allRequired)
          out.push(`${path}/properties/${key}: optional (every property must be required)`);
      }
      if (isNode(value) && isUnion(value)) counts.unions++;
      visit(value, `${path}/properties/${key}`, depth + 1);
    }
  };

  visit(schema, "#", 1);
  const { limits } = rules;
  if (limits.properties !== undefined && counts.properties > limits.properties)
    out.push(`#: more than ${limits.properties} properties`);
  if (limits.enumValues !== undefined && counts.enumValues > limits.enumValues)
    out.push(`#: more than ${limits.enumValues} enum values`);
  if (limits.optionalProperties !== undefined && counts.optional > limits.optionalProperties)
    out.push(`#: more than ${limits.optionalProperties} optional properties`);
  if (limits.unionProperties !== undefined && counts.unions > limits.unionProperties)
    out.push(`#: more than ${limits.unionProperties} properties with a union type`);
  return out;
}

/**
 * Our own rule on top of every provider's: what all three accept, and no item-count keywords either
 * (a bound the model may miss is enforced after parsing, where an answer can be repaired).
 */
export function commonSubsetViolations(schema: unknown): string[] {
  const all = (["openai", "anthropic", "google"] as const).flatMap((p) =>
    schemaViolations(p, schema).map((v) => `${p}: ${v}`),
  );
  const counts: string[] = [];
  const walk = (node: unknown, path: string) => {
    if (!isNode(node)) return;
    for (const key of ["minItems", "maxItems"])
      if (key in node) counts.push(`common: ${path}: ${key} is not used`);
    for (const [key, value] of Object.entries(node)) {
      if (Array.isArray(value)) for (const [i, v] of value.entries()) walk(v, `${path}/${key}/${i}`);
      else if (isNode(value)) walk(value, `${path}/${key}`);
    }
  };
  walk(schema, "#");
  return [...new Set([...all, ...counts])];
}
