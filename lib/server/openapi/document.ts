/**
 * The OpenAPI 3.1 document of the HTTP API, generated from the zod schemas the route handlers
 * validate with (and the response schemas in views.ts) by zod-openapi. Built once per origin: the
 * schemas do not change while the process runs.
 */
import { createDocument } from "zod-openapi";
import packageJson from "../../../package.json" with { type: "json" };
import { securitySchemes, signedIn } from "./common.ts";
import { apiPaths } from "./registry.ts";

export type OpenApiDocument = ReturnType<typeof createDocument>;

const tags = [
  { name: "Runs", description: "Start, follow, steer and read research runs." },
  { name: "Sharing", description: "Read-only links to a run's report." },
  { name: "Knowledge", description: "What runs learned, for review and reuse." },
  { name: "Library", description: "Your own documents, searched by runs." },
  { name: "Tokens", description: "Personal API tokens for scripts and agents." },
  { name: "Invitations", description: "Admins: single-use sign-up links." },
  { name: "Account", description: "Your usage, your data export, and deleting your account." },
  { name: "Admin", description: "Admins: settings, per-person limits, the system overview, backups." },
  { name: "MCP", description: "The Model Context Protocol server for editors and agents." },
  { name: "Accounts", description: "better-auth's sign-up, sign-in and sign-out." },
  { name: "Service", description: "Health and this reference." },
];

const cache = new Map<string, OpenApiDocument>();

export function openApiDocument(origin: string): OpenApiDocument {
  let doc = cache.get(origin);
  if (!doc) {
    doc = buildDocument(origin);
    cache.set(origin, doc);
  }
  return doc;
}

function buildDocument(origin: string): OpenApiDocument {
  return createDocument(
    {
      openapi: "3.1.0",
      info: {
        title: "Deep Research API",
        version: packageJson.version,
        description:
          'Everything the dashboard does goes through this API. Sign in with the session cookie, or send a personal API token as `Authorization: Bearer drt_…`. Every error is `{"error": {"code", "message"}}` (better-auth\'s `/api/auth/*` answer in its own shape).',
      },
      servers: [{ url: origin }],
      tags,
      security: signedIn,
      paths: apiPaths,
      components: { securitySchemes },
    },
    {
      // Views hold Date objects; over JSON they are ISO 8601 strings.
      override: ({ jsonSchema, zodSchema, io }) => {
        if (zodSchema._zod.def.type === "date" && io === "output") {
          jsonSchema.type = "string";
          jsonSchema.format = "date-time";
        }
      },
    },
  );
}
