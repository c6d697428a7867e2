/**
 * The run routes of the OpenAPI document (app/api/runs/**): one path item per route file.
 *
 * @internal to lib/server/openapi/: a helper of its actions, not an action; adapters do not import it.
 */
import { z } from "zod";
import type { ZodOpenApiPathItemObject } from "zod-openapi";
import { createRunSchema } from "../runs/input.ts";
import { clarificationRequestSchema, directiveRequestSchema } from "../runs/steer-input.ts";
import { shareRequestSchema } from "../shares/requests.ts";
import { errors, idPath, json, jsonBody, noContent, scoped, signedInErrors, uuid } from "./common.ts";
import {
  createdRunSchema,
  createdShareSchema,
  runStateSchema,
  runSummarySchema,
  runViewSchema,
  shareSchema,
  sourceViewSchema,
} from "./views.ts";

const tags = ["Runs"];
const runPath = { path: idPath("The run.") };
const queued = json("Accepted: the run goes on.", z.object({ status: z.literal("queued") }));

export const runsPath: ZodOpenApiPathItemObject = {
  get: {
    ...scoped("read"),
    tags,
    summary: "List your runs, newest first",
    requestParams: {
      query: z.object({
        q: z
          .string()
          .optional()
          .meta({ description: "Keep runs whose question contains this text (any case)." }),
      }),
    },
    responses: { "200": json("Your runs.", z.object({ runs: z.array(runSummarySchema) })), ...errors(401) },
  },
  post: {
    ...scoped("research"),
    tags,
    summary: "Start a run",
    description:
      "Validates the question and settings (within the server's ceilings), then queues the run. `409 not_configured` names the variable to set when no usable model or search provider is configured. `413 quota_exceeded` while your runs' stored page text is at QUOTA_SOURCE_TEXT_MB.",
    requestBody: jsonBody(createRunSchema),
    responses: {
      "201": json("Created and queued.", createdRunSchema),
      ...errors(400, ...signedInErrors, 409, 413, 422, 429),
    },
  },
};

export const runPathItem: ZodOpenApiPathItemObject = {
  get: {
    ...scoped("read"),
    tags,
    summary: "Read a run",
    description: "A malformed id is `400 bad_request`; another person's run is `404`.",
    requestParams: runPath,
    responses: { "200": json("The run.", runViewSchema), ...errors(400, 401, 404) },
  },
  delete: {
    ...scoped("research"),
    tags,
    summary: "Delete an ended run and all it owns",
    requestParams: runPath,
    responses: { "204": noContent, ...errors(...signedInErrors, 404, 409, 429) },
  },
};

export const runEventsPath: ZodOpenApiPathItemObject = {
  get: {
    ...scoped("read"),
    tags,
    summary: "Follow a run's events (Server-Sent Events)",
    description:
      "Replays stored events after the cursor, then follows live. Each event: `id:` its seq, `event:` its type, `data:` JSON. The last event is `run.completed`, `run.failed` or `run.cancelled`, then the stream closes. `429` when you already hold EVENT_STREAMS_MAX_PER_USER streams and MCP follows.",
    requestParams: {
      path: idPath("The run."),
      query: z.object({
        after: z.string().regex(/^\d+$/).optional().meta({ description: "Replay events after this seq." }),
        deltas: z.enum(["1"]).optional().meta({ description: "1: add the report's text as it is written." }),
      }),
      header: z.object({
        "Last-Event-ID": z.string().optional().meta({ description: "The last seq seen; wins over ?after." }),
      }),
    },
    responses: {
      "200": {
        description: "The event stream.",
        content: { "text/event-stream": { schema: z.string().meta({ description: "SSE blocks." }) } },
      },
      ...errors(400, 401, 404, 429),
    },
  },
};

const action = (summary: string, description: string): ZodOpenApiPathItemObject => ({
  post: {
    ...scoped("research"),
    tags,
    summary,
    description,
    requestParams: runPath,
    responses: { "202": json("Accepted.", runStateSchema), ...errors(...signedInErrors, 404, 409, 429) },
  },
});

export const runCancelPath = action(
  "Cancel a run",
  "Model, search and fetch calls in flight are aborted. `409` once the run has ended.",
);

export const runFinishPath = action(
  "Stop researching and write the report now",
  "The run ends `completed` with a partial report. `409` before research starts or once the report is being written.",
);

export const runDirectivesPath: ZodOpenApiPathItemObject = {
  post: {
    ...scoped("research"),
    tags,
    summary: "Steer a run, or approve its plan",
    description:
      "`{topic, priority?}` adds a directive (201). With plan review on, `{approvePlan: true, edits?, add?}` approves the plan (202). `409` for a near-duplicate topic or once the report is being written.",
    requestParams: runPath,
    requestBody: jsonBody(directiveRequestSchema),
    responses: {
      "201": json("The new directive.", z.object({ id: uuid("The directive.") })),
      "202": queued,
      ...errors(400, ...signedInErrors, 404, 409, 413, 422, 429),
    },
  },
};

export const runClarificationPath: ZodOpenApiPathItemObject = {
  post: {
    ...scoped("research"),
    tags,
    summary: "Answer the run's clarifying question",
    requestParams: runPath,
    requestBody: jsonBody(clarificationRequestSchema),
    responses: { "202": queued, ...errors(400, ...signedInErrors, 404, 409, 413, 422, 429) },
  },
};

export const runReportPath: ZodOpenApiPathItemObject = {
  get: {
    ...scoped("read"),
    tags,
    summary: "Download the report as Markdown",
    description: "An attachment, with its `## Sources`. `404` before a report exists.",
    requestParams: {
      path: idPath("The run."),
      query: z.object({
        download: z.enum(["1"]).optional().meta({ description: "1: name the file after the question." }),
      }),
    },
    responses: {
      "200": {
        description: "The report.",
        content: { "text/markdown": { schema: z.string().meta({ description: "Markdown." }) } },
      },
      ...errors(401, 404),
    },
  },
};

export const runSourcePath: ZodOpenApiPathItemObject = {
  get: {
    ...scoped("read"),
    tags,
    summary: "One source of a run, with the passages its citations rest on",
    requestParams: { path: idPath("The run.").extend({ sourceId: uuid("The source.") }) },
    responses: { "200": json("The source.", sourceViewSchema), ...errors(401, 404) },
  },
};

const shareTags = ["Sharing"];

export const runSharesPath: ZodOpenApiPathItemObject = {
  get: {
    ...scoped("read"),
    tags: shareTags,
    summary: "List a run's share links (never the links themselves)",
    requestParams: runPath,
    responses: {
      "200": json("The shares.", z.object({ shares: z.array(shareSchema) })),
      ...errors(401, 404),
    },
  },
  post: {
    ...scoped("research"),
    tags: shareTags,
    summary: "Create a share link",
    description: "The body is optional. The link is in this answer only; the server keeps a hash.",
    requestParams: runPath,
    requestBody: { ...jsonBody(shareRequestSchema), required: false },
    responses: {
      "201": json("The new link.", createdShareSchema),
      ...errors(400, ...signedInErrors, 404, 413, 422),
    },
  },
};

export const sharePath: ZodOpenApiPathItemObject = {
  delete: {
    ...scoped("research"),
    tags: shareTags,
    summary: "Revoke a share link",
    requestParams: { path: z.object({ shareId: uuid("The share.") }) },
    responses: { "204": noContent, ...errors(...signedInErrors, 404) },
  },
};
