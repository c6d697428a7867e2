/**
 * The OpenAPI path items of every route outside /api/runs: knowledge, library, tokens, invitations,
 * health, the document itself and better-auth's contract routes.
 *
 * @internal to lib/server/openapi/: a helper of its actions, not an action; adapters do not import it.
 */
import { z } from "zod";
import type { ZodOpenApiPathItemObject } from "zod-openapi";
import { createInvitationSchema } from "../accounts/invite.ts";
import { addKnowledgeSchema } from "../knowledge/add.ts";
import { knowledgeStatusSchema } from "../knowledge/list.ts";
import { reviewKnowledgeSchema } from "../knowledge/review.ts";
import { addDocumentSchema } from "../library/ingest.ts";
import { libraryShareSchema } from "../library/share.ts";
import { createTokenSchema } from "../tokens/create.ts";
import { tokenViewSchema } from "../tokens/view.ts";
import { errors, idPath, json, jsonBody, noContent, scoped, signedInErrors } from "./common.ts";
import {
  healthSchema,
  invitationSchema,
  knowledgeItemSchema,
  libraryDocumentFullSchema,
  libraryDocumentSchema,
  libraryUploadSchema,
} from "./views.ts";

const item = z.object({ item: knowledgeItemSchema });

export const knowledgePath: ZodOpenApiPathItemObject = {
  get: {
    ...scoped("read"),
    tags: ["Knowledge"],
    summary: "List your knowledge items (and those an admin shared)",
    requestParams: { query: z.object({ status: knowledgeStatusSchema.optional() }) },
    responses: {
      "200": json("The items.", z.object({ items: z.array(knowledgeItemSchema) })),
      ...errors(400, 401),
    },
  },
  post: {
    ...scoped("research"),
    tags: ["Knowledge"],
    summary: "Add a knowledge item",
    requestBody: jsonBody(addKnowledgeSchema),
    responses: { "201": json("The new item.", item), ...errors(400, ...signedInErrors, 409, 413, 422) },
  },
};

export const knowledgeItemPath: ZodOpenApiPathItemObject = {
  patch: {
    ...scoped("research"),
    tags: ["Knowledge"],
    summary: "Review an item: approve, reject, edit; share or unshare (admins)",
    description: "approve → established, reject → deprecated; a content edit is kept in the item's history.",
    requestParams: { path: idPath("The knowledge item.") },
    requestBody: jsonBody(reviewKnowledgeSchema),
    responses: { "200": json("The item.", item), ...errors(400, ...signedInErrors, 404, 409, 413, 422) },
  },
};

export const libraryPath: ZodOpenApiPathItemObject = {
  get: {
    ...scoped("read"),
    tags: ["Library"],
    summary: "List your library documents (without their text)",
    responses: {
      "200": json("The documents.", z.object({ documents: z.array(libraryDocumentSchema) })),
      ...errors(401),
    },
  },
  post: {
    ...scoped("research"),
    tags: ["Library"],
    summary: "Add a document: text, Markdown, HTML, a URL, or an uploaded file",
    description:
      "URLs are fetched through the SSRF guard. Counted against the upload rate limit on arrival. `413 quota_exceeded` when the document would take your library past QUOTA_LIBRARY_MB (or it is full already).",
    requestBody: {
      required: true,
      content: {
        "application/json": { schema: addDocumentSchema },
        "multipart/form-data": { schema: libraryUploadSchema },
      },
    },
    responses: {
      "201": json("Stored.", z.object({ id: z.uuid(), document: libraryDocumentSchema })),
      ...errors(400, ...signedInErrors, 413, 415, 422, 429),
    },
  },
};

const documentPath = { path: idPath("The library document.") };

export const libraryDocumentPath: ZodOpenApiPathItemObject = {
  get: {
    ...scoped("read"),
    tags: ["Library"],
    summary: "Read a document with its text",
    requestParams: documentPath,
    responses: {
      "200": json("The document.", z.object({ document: libraryDocumentFullSchema })),
      ...errors(401, 404),
    },
  },
  patch: {
    ...scoped("research"),
    tags: ["Library"],
    summary: "Share one of your documents with everyone, or take it back (admins)",
    requestParams: documentPath,
    requestBody: jsonBody(libraryShareSchema),
    responses: {
      "200": json("Done.", z.object({ id: z.uuid(), shared: z.boolean() })),
      ...errors(400, ...signedInErrors, 404, 413, 422),
    },
  },
  delete: {
    ...scoped("research"),
    tags: ["Library"],
    summary: "Delete a document",
    requestParams: documentPath,
    responses: { "204": noContent, ...errors(...signedInErrors, 404) },
  },
};

const token = tokenViewSchema.meta({ id: "Token", description: "Never the secret, nor its hash." });

export const tokensPath: ZodOpenApiPathItemObject = {
  get: {
    ...scoped("read"),
    tags: ["Tokens"],
    summary: "List your personal API tokens",
    responses: {
      "200": json("Your tokens, newest first.", z.object({ tokens: z.array(token) })),
      ...errors(401),
    },
  },
  post: {
    ...scoped("session"),
    tags: ["Tokens"],
    summary: "Create a personal API token (session only)",
    description: "The secret (`token`) is in this answer only. A token cannot create tokens: 403.",
    requestBody: jsonBody(createTokenSchema),
    responses: {
      "201": json(
        "The new token.",
        token.extend({ token: z.string().meta({ description: "drt_…, shown once." }) }),
      ),
      ...errors(400, ...signedInErrors, 413, 422),
    },
  },
};

export const tokenPath: ZodOpenApiPathItemObject = {
  delete: {
    ...scoped("research"),
    tags: ["Tokens"],
    summary: "Revoke a token (any token may revoke itself)",
    requestParams: { path: idPath("The token.") },
    responses: { "204": noContent, ...errors(...signedInErrors, 404) },
  },
};

const adminNote = "Admins only; to anyone else `404`.";

export const invitationsPath: ZodOpenApiPathItemObject = {
  get: {
    ...scoped("session"),
    tags: ["Invitations"],
    summary: "List invitations",
    description: adminNote,
    responses: {
      "200": json("Newest first.", z.object({ invitations: z.array(invitationSchema) })),
      ...errors(401, 404),
    },
  },
  post: {
    ...scoped("session"),
    tags: ["Invitations"],
    summary: "Invite someone: a single-use sign-up link",
    description: `${adminNote} The link is in this answer only.`,
    requestBody: jsonBody(createInvitationSchema),
    responses: {
      "201": json("The invitation.", z.object({ invitation: invitationSchema.extend({ url: z.string() }) })),
      ...errors(400, ...signedInErrors, 404, 413, 422),
    },
  },
};

export const invitationPath: ZodOpenApiPathItemObject = {
  delete: {
    ...scoped("session"),
    tags: ["Invitations"],
    summary: "Revoke an open invitation",
    description: adminNote,
    requestParams: { path: idPath("The invitation.") },
    responses: { "204": noContent, ...errors(...signedInErrors, 404) },
  },
};

export const healthPath: ZodOpenApiPathItemObject = {
  get: {
    ...scoped("open"),
    tags: ["Service"],
    summary: "Up or not, and whether the database is reachable",
    responses: {
      "200": json("Up.", healthSchema),
      "503": json("The database is unreachable.", healthSchema),
    },
  },
};

export const openApiPath: ZodOpenApiPathItemObject = {
  get: {
    ...scoped("open"),
    tags: ["Service"],
    summary: "This OpenAPI 3.1 document",
    responses: { "200": json("The document.", z.record(z.string(), z.unknown())) },
  },
};

export const docsPath: ZodOpenApiPathItemObject = {
  get: {
    ...scoped("open"),
    tags: ["Service"],
    summary: "This reference as a web page",
    responses: {
      "200": { description: "HTML.", content: { "text/html": { schema: z.string() } } },
    },
  },
};
