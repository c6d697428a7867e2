/**
 * Pieces every operation of the OpenAPI document shares: the error shape and its codes per status,
 * id path parameters, timestamps, the ways to sign a request (session cookie, API token, the backup
 * secret) and the scope each operation declares (`x-scope`, lib/server/auth/scopes.ts).
 *
 * @internal to lib/server/openapi/: a helper of its actions, not an action; adapters do not import it.
 */
import { z } from "zod";
import type { ZodOpenApiResponseObject, ZodOpenApiResponsesObject } from "zod-openapi";
import { type ErrorCode, errorStatus } from "../../errors.ts";
import { type OperationScope, scopeMeaning, tokenScopes } from "../auth/scopes.ts";

const errorCodes = Object.keys(errorStatus) as [ErrorCode, ...ErrorCode[]];

/** The one error body of every route but better-auth's (lib/errors.ts, lib/http.ts). */
export const errorBodySchema = z
  .object({
    error: z.object({
      code: z.enum(errorCodes).meta({ description: "Decides the HTTP status (see each response)." }),
      message: z.string().meta({ description: "What went wrong, in plain words." }),
      details: z.unknown().optional().meta({
        description:
          "Sometimes: each invalid field (422), the directive a new one duplicates (409), the limit that was hit (429).",
      }),
    }),
  })
  .meta({ id: "Error", description: '`{"error": {"code", "message", "details?"}}`, never a stack trace.' });

/** The codes that answer with each status, read from lib/errors.ts so the document cannot drift. */
export function errorCodesFor(status: number): ErrorCode[] {
  return errorCodes.filter((code) => errorStatus[code] === status);
}

const statusWords: Record<number, string> = {
  400: "Bad request",
  401: "No valid session or API token",
  403: "Forbidden",
  404: "Not found (also another person's resource: ids do not reveal what exists)",
  409: "Conflict with the resource's state, or not configured",
  413: "Body too large",
  415: "Unsupported media type",
  422: "The body is JSON but not what the route accepts",
  429: "Past a rate limit (Retry-After in seconds) or the queue of waiting runs",
  500: "Unexpected; the error was logged",
  503: "Unavailable",
};

function errorResponse(status: number): ZodOpenApiResponseObject {
  const codes = errorCodesFor(status).map((c) => `\`${c}\``);
  return {
    description: `${statusWords[status] ?? "Error"}. Codes: ${codes.join(", ")}.`,
    content: { "application/json": { schema: errorBodySchema } },
  };
}

/** Error responses for the given statuses, plus the 500 any route may answer. */
export function errors(...statuses: number[]): ZodOpenApiResponsesObject {
  return Object.fromEntries([...statuses, 500].map((s) => [String(s), errorResponse(s)]));
}

/** What every route that needs a caller may answer besides its own refusals. */
export const signedInErrors = [401, 403] as const;

export const uuid = (description: string) => z.uuid().meta({ description });
export const timestamp = (description?: string) => z.iso.datetime().meta(description ? { description } : {});
export const nullableTimestamp = (description?: string) => timestamp(description).nullable();

/** A path whose `{id}` is a UUID; a malformed one names nothing (404), except where noted. */
export const idPath = (description: string) => z.object({ id: uuid(description) });

/** A JSON object whose keys the engine decides (usage, coverage, assessments). */
export const jsonObject = (description: string) => z.record(z.string(), z.unknown()).meta({ description });

export const noContent: ZodOpenApiResponseObject = { description: "Done; no body." };

export const json = (description: string, schema: z.ZodType): ZodOpenApiResponseObject => ({
  description,
  content: { "application/json": { schema } },
});

export const jsonBody = (schema: z.ZodType, description?: string) => ({
  required: true,
  ...(description ? { description } : {}),
  content: { "application/json": { schema } },
});

type SecurityRequirement = Record<string, string[]>;

const scopeList = tokenScopes.map((s) => `\`${s}\` (${scopeMeaning[s]})`).join("; ");

export const securitySchemes = {
  sessionCookie: {
    type: "apiKey",
    in: "cookie",
    name: "better-auth.session_token",
    description:
      "The HTTP-only session cookie set by sign-in or sign-up. Cookie-authenticated writes must come from this site (Origin / Sec-Fetch-Site), through a Host this server answers for (an IP address, localhost, APP_URL's host or ALLOWED_HOSTS), and carry JSON (or multipart for uploads), otherwise 403.",
  },
  bearerToken: {
    type: "http",
    scheme: "bearer",
    bearerFormat: "drt_…",
    description: `A personal API token (account page or POST /api/tokens). It acts as its owner, with the same 404 rules and limits, but only within its scope: ${scopeList}. Each operation names the scope it needs (\`x-scope\`, and the role in its security requirement); outside it a token gets 403 with \`details.requiredScope\`. Every token expires (at most a year; an admin token within 90 days).`,
  },
  metricsToken: {
    type: "http",
    scheme: "bearer",
    description: "METRICS_TOKEN, the scraper's secret for GET /api/metrics. Not an API token.",
  },
  backupSecret: {
    type: "http",
    scheme: "bearer",
    description:
      "BACKUP_SECRET, the backup-only secret the app and `npm run backup` share. Not an API token.",
  },
} as const;

/**
 * The scope an operation declares: `x-scope` for clients and tests, and its security requirement —
 * a session always, a token only with that scope (OpenAPI 3.1 lets a requirement name roles).
 */
export function scoped(scope: OperationScope): {
  "x-scope": OperationScope;
  security: SecurityRequirement[];
} {
  const security: SecurityRequirement[] =
    scope === "open"
      ? []
      : scope === "session"
        ? [{ sessionCookie: [] }]
        : [{ sessionCookie: [] }, { bearerToken: [scope] }];
  return { "x-scope": scope, security };
}

/** Either credential: the document's default (each operation still declares its own scope). */
export const signedIn: SecurityRequirement[] = [{ sessionCookie: [] }, { bearerToken: [] }];
