/**
 * A curl command for one operation of the OpenAPI document: the method, the path with its
 * parameters as placeholders, the bearer token (unless the route is open or needs a session) and a
 * body made of the schema's required fields.
 *
 * @internal to lib/server/openapi/: a helper of its actions, not an action; adapters do not import it.
 */
import type { OpenApiDocument } from "./document.ts";

type Json = Record<string, unknown>;

interface ExampleOperation {
  security?: Json[];
  requestBody?: { content?: Record<string, { schema?: Json }> };
}

/** `{id}` → `ID`, so the command reads as one to fill in rather than one to run as is. */
const placeholders = (path: string) => path.replace(/\{(\w+)\}/g, (_, name: string) => name.toUpperCase());

function resolve(schema: Json, doc: OpenApiDocument): Json {
  if (typeof schema.$ref !== "string") return schema;
  const name = schema.$ref.split("/").at(-1) ?? "";
  return (doc.components?.schemas?.[name] as Json | undefined) ?? {};
}

/** A small value that fits the schema: required properties only, first enum value, first branch. */
export function exampleOf(raw: Json, doc: OpenApiDocument, depth = 0): unknown {
  const schema = resolve(raw, doc);
  if (depth > 4) return null;
  if ("const" in schema) return schema.const;
  if (Array.isArray(schema.enum)) return schema.enum[0];
  const branches = (schema.anyOf ?? schema.oneOf) as Json[] | undefined;
  if (branches?.length) return exampleOf(branches[0], doc, depth + 1);
  switch (schema.type) {
    case "object": {
      const properties = (schema.properties ?? {}) as Record<string, Json>;
      const required = (schema.required ?? []) as string[];
      return Object.fromEntries(required.map((k) => [k, exampleOf(properties[k] ?? {}, doc, depth + 1)]));
    }
    case "array":
      return [];
    case "integer":
    case "number":
      return typeof schema.minimum === "number" ? schema.minimum : 1;
    case "boolean":
      return true;
    case "string":
      return schema.format === "email" ? "person@example.org" : "…";
    default:
      return null;
  }
}

export function curlExample(
  server: string,
  method: string,
  path: string,
  op: ExampleOperation,
  doc: OpenApiDocument,
): string {
  const security = op.security ?? (doc.security as Json[] | undefined) ?? [];
  const bearer = security.some((s) => "bearerToken" in s);
  const sessionOnly = !bearer && security.length > 0;
  const lines = [
    `curl${method === "get" ? "" : ` -X ${method.toUpperCase()}`} "${server}${placeholders(path)}"`,
  ];
  if (path.endsWith("/events")) lines[0] = lines[0].replace("curl", "curl -N");
  if (bearer) lines.push(`-H "Authorization: Bearer $TOKEN"`);
  if (sessionOnly) lines.push(`-b "better-auth.session_token=…"`);
  const content = op.requestBody?.content ?? {};
  if (content["application/json"]?.schema) {
    const body = JSON.stringify(exampleOf(content["application/json"].schema, doc));
    lines.push(`-H "Content-Type: application/json"`, `-d '${body.replaceAll("'", "'\\''")}'`);
  } else if (content["multipart/form-data"]) {
    lines.push(`-F "file=@document.pdf"`);
  }
  return lines.join(" \\\n  ");
}
