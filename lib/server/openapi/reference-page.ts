/**
 * The API reference page (GET /api/docs), rendered on the server from the OpenAPI document: one
 * section per tag, one entry per operation (method and path, summary, who may call it, parameters,
 * request and response schemas, a curl example), then the shared schemas. Plain semantic HTML with
 * no script and no stylesheet: the API's Content-Security-Policy allows neither, and the browser's
 * own styles keep it readable and high-contrast.
 */
import { curlExample } from "./curl-example.ts";
import type { OpenApiDocument } from "./document.ts";

type Json = Record<string, unknown>;
type Operation = {
  tags?: string[];
  summary?: string;
  description?: string;
  security?: Json[];
  parameters?: Json[];
  requestBody?: { content?: Record<string, { schema?: Json }> };
  responses?: Record<string, { description?: string; content?: Record<string, { schema?: Json }> }>;
};

const methods = ["get", "post", "put", "patch", "delete"] as const;

export function escapeHtml(text: string): string {
  return text
    .replaceAll("&", "&amp;")
    .replaceAll("<", "&lt;")
    .replaceAll(">", "&gt;")
    .replaceAll('"', "&quot;")
    .replaceAll("'", "&#39;");
}

/** `code` spans in the document's descriptions become <code>; everything else is escaped text. */
function prose(text: string | undefined): string {
  if (!text) return "";
  return escapeHtml(text).replace(/`([^`]+)`/g, "<code>$1</code>");
}

const anchor = (text: string) =>
  text
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-|-$/g, "");
const refName = (ref: string) => ref.split("/").at(-1) ?? ref;

function schemaHtml(schema: Json | undefined): string {
  if (!schema) return "<p>Any.</p>";
  if (typeof schema.$ref === "string") {
    const name = refName(schema.$ref);
    return `<p>Schema: <a href="#schema-${anchor(name)}">${escapeHtml(name)}</a></p>`;
  }
  return `<pre><code>${escapeHtml(JSON.stringify(schema, null, 2))}</code></pre>`;
}

function authLine(op: Operation, defaults: Json[]): string {
  const security = op.security ?? defaults;
  if (security.length === 0) return "none: open to anyone";
  const words: Record<string, string> = {
    sessionCookie: "session cookie",
    bearerToken: "bearer API token",
    metricsToken: "METRICS_TOKEN",
    backupSecret: "BACKUP_SECRET",
  };
  const names = security.flatMap((s) =>
    Object.entries(s).map(([name, roles]) => {
      const word = words[name] ?? name;
      return Array.isArray(roles) && roles.length > 0 ? `${word} with the ${roles.join(", ")} scope` : word;
    }),
  );
  return names.join(" or ");
}

function parametersHtml(parameters: Json[] | undefined): string {
  if (!parameters?.length) return "";
  const rows = parameters.map((p) => {
    const schema = (p.schema ?? {}) as Json;
    const type = typeof schema.$ref === "string" ? refName(schema.$ref) : String(schema.type ?? "");
    const description = (p.description ?? schema.description) as string | undefined;
    return `<tr><th scope="row"><code>${escapeHtml(String(p.name))}</code></th><td>${escapeHtml(String(p.in))}</td><td>${p.required ? "yes" : "no"}</td><td>${escapeHtml(type)}</td><td>${prose(description)}</td></tr>`;
  });
  return `<h4>Parameters</h4>
<table><thead><tr><th scope="col">name</th><th scope="col">in</th><th scope="col">required</th><th scope="col">type</th><th scope="col">description</th></tr></thead>
<tbody>${rows.join("\n")}</tbody></table>`;
}

function requestBodyHtml(op: Operation): string {
  const content = op.requestBody?.content;
  if (!content) return "";
  const parts = Object.entries(content).map(
    ([type, media]) => `<h5><code>${escapeHtml(type)}</code></h5>${schemaHtml(media.schema)}`,
  );
  return `<h4>Request body</h4>${parts.join("\n")}`;
}

function responsesHtml(op: Operation): string {
  const entries = Object.entries(op.responses ?? {}).map(([status, response]) => {
    const content = Object.entries(response.content ?? {}).map(
      ([type, media]) => `<p><code>${escapeHtml(type)}</code></p>${schemaHtml(media.schema)}`,
    );
    return `<dt><strong>${escapeHtml(status)}</strong> ${prose(response.description)}</dt><dd>${content.join("") || "<p>No body.</p>"}</dd>`;
  });
  return `<h4>Responses</h4><dl>${entries.join("\n")}</dl>`;
}

interface Listed {
  path: string;
  method: string;
  op: Operation;
}

function operationHtml({ path, method, op }: Listed, doc: OpenApiDocument, server: string): string {
  const id = `op-${anchor(`${method} ${path}`)}`;
  return `<article aria-labelledby="${id}">
<h3 id="${id}"><code>${method.toUpperCase()} ${escapeHtml(path)}</code>: ${prose(op.summary)}</h3>
${op.description ? `<p>${prose(op.description)}</p>` : ""}
<p><strong>Authentication:</strong> ${authLine(op, (doc.security ?? []) as Json[])}</p>
${parametersHtml(op.parameters)}
${requestBodyHtml(op)}
${responsesHtml(op)}
<h4>Example</h4>
<pre><code>${escapeHtml(curlExample(server, method, path, op, doc))}</code></pre>
</article>`;
}

/** Every operation of the document, in the registry's order. */
export function listOperations(doc: OpenApiDocument): Listed[] {
  return Object.entries(doc.paths ?? {}).flatMap(([path, item]) =>
    methods.flatMap((method) => {
      const op = (item as Record<string, Operation | undefined>)[method];
      return op ? [{ path, method, op }] : [];
    }),
  );
}

function schemasHtml(doc: OpenApiDocument): string {
  const schemas = Object.entries(doc.components?.schemas ?? {}).map(
    ([name, schema]) =>
      `<h3 id="schema-${anchor(name)}">${escapeHtml(name)}</h3>\n<pre><code>${escapeHtml(JSON.stringify(schema, null, 2))}</code></pre>`,
  );
  return `<section aria-labelledby="schemas"><h2 id="schemas">Schemas</h2>\n${schemas.join("\n")}</section>`;
}

export function renderReferencePage(doc: OpenApiDocument): string {
  const server = doc.servers?.[0]?.url ?? "";
  const operations = listOperations(doc);
  const tags = (doc.tags ?? []).filter((t) => operations.some((o) => o.op.tags?.includes(t.name)));
  const sections = tags.map((tag) => {
    const id = `tag-${anchor(tag.name)}`;
    const ops = operations.filter((o) => o.op.tags?.includes(tag.name));
    return `<section aria-labelledby="${id}"><h2 id="${id}">${escapeHtml(tag.name)}</h2>
${tag.description ? `<p>${prose(tag.description)}</p>` : ""}
${ops.map((o) => operationHtml(o, doc, server)).join("\n")}
</section>`;
  });
  const contents = tags
    .map((t) => `<li><a href="#tag-${anchor(t.name)}">${escapeHtml(t.name)}</a></li>`)
    .concat('<li><a href="#schemas">Schemas</a></li>');
  const title = `${doc.info.title} reference`;
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(title)}</title>
</head>
<body>
<header>
<h1>${escapeHtml(title)}</h1>
<p>Version ${escapeHtml(doc.info.version)}. ${prose(doc.info.description)}</p>
<p>The machine-readable document: <a href="/api/openapi.json">/api/openapi.json</a> (OpenAPI 3.1). Server: <code>${escapeHtml(server)}</code>.</p>
</header>
<nav aria-label="Contents"><ul>${contents.join("")}</ul></nav>
<main>
${sections.join("\n")}
${schemasHtml(doc)}
</main>
</body>
</html>
`;
}
