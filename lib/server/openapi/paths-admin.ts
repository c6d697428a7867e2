/**
 * The OpenAPI path items of the account's own data, the admin routes, MCP and metrics.
 *
 * @internal to lib/server/openapi/: a helper of its actions, not an action; adapters do not import it.
 */
import { z } from "zod";
import type { ZodOpenApiPathItemObject } from "zod-openapi";
import { settingsInputSchema } from "../../jobs/settings/input.ts";
import { deleteAccountSchema } from "../accounts/delete.ts";
import { userLimitsSchema } from "../accounts/set-limits.ts";
import { providerTestSchema } from "../settings/test-provider.ts";
import {
  errors,
  json,
  jsonBody,
  jsonObject,
  noContent,
  scoped,
  signedInErrors,
  timestamp,
} from "./common.ts";

const admins = "Admins only: to anyone else the route answers 404, as if it did not exist.";
const totals = { calls: z.number(), tokens: z.number(), costUsd: z.number() };
const dayUsage = z.object({
  day: z.string().meta({ description: "YYYY-MM-DD (UTC)" }),
  runs: z.number(),
  ...totals,
});

const quotaUse = (description: string) =>
  z
    .object({
      usedBytes: z.number(),
      limitBytes: z.number().meta({ description: "0: no limit on this server." }),
      variable: z.string().meta({ description: "The environment variable that sets the limit." }),
    })
    .meta({ description });

const usageReportSchema = z
  .object({
    since: timestamp("Start of the window (30 days, UTC)."),
    days: z.array(dayUsage),
    byRole: z.array(z.object({ role: z.string(), ...totals })),
    total: z.object({ runs: z.number(), ...totals }),
    storage: z.object({
      library: quotaUse("Your library documents' text (QUOTA_LIBRARY_MB)."),
      sourceText: quotaUse("The page text your runs keep as sources (QUOTA_SOURCE_TEXT_MB)."),
    }),
  })
  .meta({ id: "UsageReport" });

const gzip = (description: string) => ({
  description,
  content: { "application/gzip": { schema: z.string().meta({ format: "binary" }) } },
});

export const accountPath: ZodOpenApiPathItemObject = {
  delete: {
    ...scoped("session"),
    tags: ["Account"],
    summary: "Delete your account and everything it owns, and sign out",
    description:
      "Runs (with their sources, events and reports), knowledge, library documents, shares, tokens and webhooks go in one transaction. `409` while one of your runs has not ended (cancel it first) or when you are the last admin and other accounts exist.",
    requestBody: jsonBody(deleteAccountSchema),
    responses: {
      "200": json("Deleted; the session cookie is expired.", z.object({ deleted: z.literal(true) })),
      ...errors(400, ...signedInErrors, 409, 413, 422),
    },
  },
};

export const accountExportPath: ZodOpenApiPathItemObject = {
  get: {
    ...scoped("research"),
    tags: ["Account"],
    summary: "Export everything you own as one archive",
    description:
      "A .tar.gz with runs/<slug>-<id>.md (each report with its Sources), runs/<slug>-<id>.json (the run, its sources, events and directives), knowledge.json and library.json, streamed as it is written. One at a time per person: `429` while another of your exports is downloading, and past RATE_LIMIT_EXPORTS_PER_HOUR.",
    responses: { "200": gzip("The archive (a download)."), ...errors(401, 403, 429) },
  },
};

export const accountUsagePath: ZodOpenApiPathItemObject = {
  get: {
    ...scoped("read"),
    tags: ["Account"],
    summary: "Your usage and cost over the last 30 days, by day and by model role, and your storage",
    responses: { "200": json("Your usage.", usageReportSchema), ...errors(401) },
  },
};

export const backupPath: ZodOpenApiPathItemObject = {
  get: {
    ...scoped("session"),
    security: [{ sessionCookie: [] }, { backupSecret: [] }],
    tags: ["Admin"],
    summary: "A consistent snapshot of the embedded database",
    description: `What \`npm run backup\` saves while the app runs. An admin's session (from this app's own pages) or \`Authorization: Bearer <BACKUP_SECRET>\`; never an API token (403). Every backup is written to the audit log (who, when, size). ${admins} \`409\` on PostgreSQL (use \`npm run backup\`, which runs pg_dump), or when BACKUP_SECRET is set to something that is not a secret of its own.`,
    responses: { "200": gzip("A gzipped tar of the data directory."), ...errors(401, 403, 404, 409) },
  },
};

const accountSchema = z
  .object({
    id: z.string(),
    name: z.string(),
    email: z.string(),
    role: z.enum(["admin", "user"]),
    disabled: z.boolean(),
    createdAt: timestamp(),
  })
  .meta({ id: "Account", description: "An account as the admin page lists it: nothing it owns." });

export const usersPath: ZodOpenApiPathItemObject = {
  get: {
    ...scoped("admin"),
    tags: ["Admin"],
    summary: "List every account",
    description: `Name, email, role, whether it is disabled, when it was made; never a password or anything the account owns. ${admins}`,
    responses: {
      "200": json("Oldest first.", z.object({ users: z.array(accountSchema) })),
      ...errors(401, 403, 404),
    },
  },
};

export const auditPath: ZodOpenApiPathItemObject = {
  get: {
    ...scoped("admin"),
    tags: ["Admin"],
    summary: "The audit log: backups and password resets",
    description: `Who took a backup (an admin, or BACKUP_SECRET when \`actorEmail\` is null), when and how large; which admin set whose password. Every admin sees it and nobody can remove an entry. ${admins}`,
    responses: {
      "200": json(
        "Newest first (the latest 200).",
        z.object({
          entries: z.array(
            z
              .object({
                id: z.uuid(),
                action: z.enum(["backup", "password_reset"]),
                actorEmail: z.string().nullable(),
                subjectEmail: z.string().nullable(),
                bytes: z.number().nullable(),
                ipAddress: z.string().nullable(),
                createdAt: timestamp(),
              })
              .meta({ id: "AuditEntry" }),
          ),
        }),
      ),
      ...errors(401, 403, 404),
    },
  },
};

const settingsViewSchema = jsonObject(
  "The settings as the page shows them: per area (models, providers, search, runs) whether the environment is used and the stored values; provider and search keys only as {set, last4}; what the environment alone says; the model each role gets now with its fallback chain; problems; and the change record.",
).meta({ id: "SettingsView" });

export const settingsPath: ZodOpenApiPathItemObject = {
  get: {
    ...scoped("session"),
    tags: ["Admin"],
    summary: "The admin settings (models, provider keys, search, run limits)",
    description: `Keys are never returned, only whether one is set and its last four characters. ${admins}`,
    responses: { "200": json("The settings.", settingsViewSchema), ...errors(401, 404) },
  },
  put: {
    ...scoped("session"),
    tags: ["Admin"],
    summary: "Save one or more settings areas",
    description: `Keys are stored encrypted (AES-256-GCM under AUTH_SECRET); an empty key keeps the stored one. Each change is recorded without secrets. Applies to runs created afterwards. ${admins}`,
    requestBody: jsonBody(settingsInputSchema),
    responses: {
      "200": json(
        "Saved: the changes in words and the settings after saving.",
        z.object({ changes: z.array(z.string()), settings: settingsViewSchema }),
      ),
      ...errors(400, ...signedInErrors, 404, 413, 422),
    },
  },
};

export const settingsTestPath: ZodOpenApiPathItemObject = {
  post: {
    ...scoped("session"),
    tags: ["Admin"],
    summary: "Test a model provider with one minimal call",
    description: `Uses the given key and base URL, or the stored/environment ones. ${admins}`,
    requestBody: jsonBody(providerTestSchema),
    responses: {
      "200": json(
        "The outcome, in words (a failure is still 200: the test itself worked).",
        z.object({ ok: z.boolean(), message: z.string(), ms: z.number().optional() }),
      ),
      ...errors(400, ...signedInErrors, 404, 413, 422),
    },
  },
};

export const systemPath: ZodOpenApiPathItemObject = {
  get: {
    ...scoped("admin"),
    tags: ["Admin"],
    summary: "Runs in progress and waiting, recent failures, model error rates and cost per day",
    description: `Read from the database, so whole across processes. ${admins}`,
    responses: {
      "200": json(
        "The overview.",
        z
          .object({
            generatedAt: timestamp(),
            since: timestamp(),
            runs: z.array(
              jsonObject(
                "An unfinished run: its id, owner's email, status, phase and age; never its question.",
              ),
            ),
            failures: z.array(jsonObject("A failed run: owner's email, phase, reason; never its question.")),
            ended: z.object({ completed: z.number(), failed: z.number(), cancelled: z.number() }),
            models: z.array(jsonObject("Calls, retries and error rate of a model role.")),
            costByDay: z.array(dayUsage),
          })
          .meta({ id: "SystemOverview" }),
      ),
      ...errors(401, 403, 404),
    },
  },
};

export const userLimitsPath: ZodOpenApiPathItemObject = {
  put: {
    ...scoped("session"),
    tags: ["Admin"],
    summary: "Set one person's concurrent-run and monthly cost limits",
    description: `null means the server's default. ${admins}`,
    requestParams: { path: z.object({ id: z.string().meta({ description: "The account's id." }) }) },
    requestBody: jsonBody(userLimitsSchema),
    responses: {
      "200": json("The limits now.", z.object({ limits: userLimitsSchema.extend({ userId: z.string() }) })),
      ...errors(400, ...signedInErrors, 404, 413, 422),
    },
  },
};

const jsonRpc = jsonObject("A JSON-RPC 2.0 message (or batch) of the Model Context Protocol.");
/** The MCP transport's own refusals are JSON-RPC errors, not this API's error shape. */
const rpcError = (description: string) => ({
  description,
  content: { "application/json": { schema: jsonRpc } },
});

export const mcpPath: ZodOpenApiPathItemObject = {
  post: {
    ...scoped("read"),
    tags: ["MCP"],
    summary: "The MCP server (streamable HTTP, stateless)",
    description:
      "Tools start_research, get_research, list_sources, add_directive, cancel_research, search_knowledge and follow_research; resources research://runs/{id}/report. Bearer personal API token only: a session cookie alone is 401. See docs/usage.md, 'Connecting an MCP client'.",
    security: [{ bearerToken: ["read"] }],
    requestBody: jsonBody(jsonRpc),
    responses: {
      "200": {
        description: "A JSON-RPC answer, as JSON or as a text/event-stream carrying progress notifications.",
        content: { "application/json": { schema: jsonRpc }, "text/event-stream": { schema: z.string() } },
      },
      "202": noContent,
      "400": rpcError("Not a valid JSON-RPC message (a JSON-RPC error)."),
      "406": rpcError("The Accept header must allow application/json and text/event-stream."),
      "415": rpcError("The body must be application/json."),
      ...errors(401),
    },
  },
  get: {
    ...scoped("read"),
    tags: ["MCP"],
    summary: "Not offered: the server keeps no sessions, so there is no stream to resume",
    security: [{ bearerToken: ["read"] }],
    responses: { "405": rpcError("Always: send requests with POST.") },
  },
  delete: {
    ...scoped("read"),
    tags: ["MCP"],
    summary: "Not offered: there is no session to end",
    security: [{ bearerToken: ["read"] }],
    responses: { "405": rpcError("Always: the server keeps no sessions.") },
  },
};

export const metricsPath: ZodOpenApiPathItemObject = {
  get: {
    ...scoped("admin"),
    tags: ["Service"],
    summary: "Prometheus metrics of this web process, plus the database's whole figures",
    description:
      "An admin's session, an admin's token with the `admin` scope, or `Authorization: Bearer <METRICS_TOKEN>`. Anonymous or a wrong token: 401; a signed-in non-admin: 404; an admin's token of another scope: 403.",
    security: [{ sessionCookie: [] }, { bearerToken: ["admin"] }, { metricsToken: [] }],
    responses: {
      "200": { description: "Prometheus text format.", content: { "text/plain": { schema: z.string() } } },
      ...errors(401, 403, 404),
    },
  },
};
