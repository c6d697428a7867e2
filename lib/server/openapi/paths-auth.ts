/**
 * better-auth's routes under /api/auth (app/api/auth/[...all]): the contract ones only. better-auth
 * validates these bodies itself, so the schemas here describe its contract rather than feed a
 * handler; its answers and errors (`{message, code}`) are its own. The rest of its routes
 * (change-password, admin/*) are described in docs/API.md.
 *
 * @internal to lib/server/openapi/: a helper of its actions, not an action; adapters do not import it.
 */
import { z } from "zod";
import type { ZodOpenApiPathItemObject, ZodOpenApiResponseObject } from "zod-openapi";
import { json, jsonBody, scoped } from "./common.ts";

const tags = ["Accounts"];
const moreRoutes =
  "Other routes of better-auth (change-password, admin/*): see docs/API.md and https://www.better-auth.com/docs.";

const authErrorSchema = z
  .object({ code: z.string().optional(), message: z.string() })
  .meta({ id: "AuthError", description: "better-auth's own error shape." });

const authError = (description: string): ZodOpenApiResponseObject => json(description, authErrorSchema);

const userSchema = z
  .object({ id: z.string(), email: z.string(), name: z.string(), role: z.string().optional() })
  .loose()
  .meta({ id: "User" });

const signedInAnswer: ZodOpenApiResponseObject = {
  ...json(
    "Signed in; the session cookie is set.",
    z.object({ token: z.string().nullable().optional(), user: userSchema }).loose(),
  ),
  headers: z.object({ "Set-Cookie": z.string().meta({ description: "better-auth.session_token=…" }) }),
};

export const signUpPath: ZodOpenApiPathItemObject = {
  post: {
    ...scoped("open"),
    tags,
    summary: "Create an account and sign in",
    description: `The first account on an empty database needs no invitation and becomes the admin; after that SIGNUP decides (invite, open, closed). ${moreRoutes}`,
    requestBody: jsonBody(
      z.object({
        email: z.email(),
        password: z.string().min(8).max(256),
        name: z.string().min(1),
        invite: z.string().optional().meta({ description: "The token of an admin's invitation link." }),
      }),
    ),
    responses: {
      "200": signedInAnswer,
      "403": authError(
        "SIGNUP_CLOSED, INVITATION_REQUIRED or INVITATION_INVALID; or (in this API's error shape) the request came through a Host that is not an IP address, localhost, APP_URL's host or one in ALLOWED_HOSTS (DNS rebinding).",
      ),
      "422": authError("The email is taken or the body is invalid."),
    },
  },
};

export const signInPath: ZodOpenApiPathItemObject = {
  post: {
    ...scoped("open"),
    tags,
    summary: "Sign in with email and password",
    description: moreRoutes,
    requestBody: jsonBody(z.object({ email: z.email(), password: z.string() })),
    responses: {
      "200": signedInAnswer,
      "401": authError("INVALID_EMAIL_OR_PASSWORD."),
      "403": authError("BANNED_USER: the account is disabled."),
      "429": authError("Past AUTH_RATE_LIMIT_PER_MINUTE."),
    },
  },
};

export const signOutPath: ZodOpenApiPathItemObject = {
  post: {
    ...scoped("open"),
    tags,
    summary: "Sign out: end the session",
    description: moreRoutes,
    responses: { "200": json("Signed out.", z.object({ success: z.boolean() })) },
  },
};

export const sessionPath: ZodOpenApiPathItemObject = {
  get: {
    ...scoped("open"),
    tags,
    summary: "The signed-in user and session, or null",
    description: moreRoutes,
    responses: {
      "200": json(
        "The session, or null without one.",
        z.object({ user: userSchema, session: z.record(z.string(), z.unknown()) }).nullable(),
      ),
    },
  },
};
