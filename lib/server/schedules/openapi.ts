/**
 * The OpenAPI path items of scheduled refresh (app/api/runs/[id]/schedule) and of in-app notices
 * (app/api/notifications, app/api/notifications/read).
 *
 * @internal to lib/server/schedules/: a helper of its actions, not an action; adapters do not import it.
 */
import { z } from "zod";
import type { ZodOpenApiPathItemObject } from "zod-openapi";
import { notificationKinds, scheduleIntervals } from "../../../db/schema.ts";
import { markReadSchema } from "../notifications/notifications.ts";
import {
  errors,
  idPath,
  json,
  jsonBody,
  nullableTimestamp,
  scoped,
  signedInErrors,
  timestamp,
  uuid,
} from "../openapi/common.ts";
import { scheduleRequestSchema } from "./schedule.ts";

const scheduleSchema = z
  .object({
    reportId: uuid("The report's first run: all its versions share this schedule."),
    every: z.enum(scheduleIntervals),
    nextRunAt: nullableTimestamp("When the next refresh starts (UTC)."),
    pausedReason: z.string().nullable().meta({
      description: "Why the last refresh did not start (your limits or budget); null when on plan.",
    }),
    pausedError: z
      .object({ code: z.string(), details: z.record(z.string(), z.unknown()).nullable() })
      .nullable()
      .meta({ description: "The same as the error it was: its `code` and `details` (null when on plan)." }),
    pausedAt: nullableTimestamp(),
    lastRunId: uuid("The version the schedule started last.").nullable(),
  })
  .meta({ id: "RunSchedule" });

const runPath = { path: idPath("Any version of the report.") };

export const runSchedulePath: ZodOpenApiPathItemObject = {
  get: {
    ...scoped("read"),
    tags: ["Runs"],
    summary: "The report's refresh schedule",
    requestParams: runPath,
    responses: {
      "200": json("`{schedule}`, null when it has none.", z.object({ schedule: scheduleSchema.nullable() })),
      ...errors(401, 404),
    },
  },
  put: {
    ...scoped("research"),
    tags: ["Runs"],
    summary: "Refresh the report on a schedule",
    description:
      "Refreshes the report every day, week or month (UTC, from now): each time a new version with the same question and settings, started within your limits, slots and budget. When they say no, the schedule is paused with the reason (`pausedReason`) and you get a notice; the next time tries again. One schedule per report (any version's id names it); a new `every` replaces the old. When a new version differs from the one before, you get a notice and, with a webhook URL, `run.version_ready`. `409` when the run has no report.",
    requestParams: runPath,
    requestBody: jsonBody(scheduleRequestSchema),
    responses: {
      "200": json("The schedule.", z.object({ schedule: scheduleSchema })),
      ...errors(400, ...signedInErrors, 404, 409, 422, 429),
    },
  },
  delete: {
    ...scoped("research"),
    tags: ["Runs"],
    summary: "Stop refreshing the report on a schedule",
    requestParams: runPath,
    responses: {
      "200": json("`removed`: whether there was a schedule.", z.object({ removed: z.boolean() })),
      ...errors(...signedInErrors, 404, 429),
    },
  },
};

const notificationSchema = z
  .object({
    id: z.uuid(),
    kind: z.enum(notificationKinds).meta({
      description:
        "`version_ready`: a new version differs from the one before (`data`: reportId, previousRunId, diff counts); `schedule_paused`: a scheduled refresh could not start (`data.reason`).",
    }),
    runId: uuid("The run the notice links to."),
    data: z.record(z.string(), z.unknown()),
    createdAt: timestamp(),
    readAt: nullableTimestamp(),
  })
  .meta({ id: "Notification" });

export const notificationsPath: ZodOpenApiPathItemObject = {
  get: {
    ...scoped("read"),
    tags: ["Account"],
    summary: "Your notices, newest first",
    responses: {
      "200": json(
        "The latest 50 notices and how many of all are unread.",
        z.object({ unread: z.number().int(), notifications: z.array(notificationSchema) }),
      ),
      ...errors(401),
    },
  },
};

export const notificationsReadPath: ZodOpenApiPathItemObject = {
  post: {
    ...scoped("research"),
    tags: ["Account"],
    summary: "Mark your notices read",
    description: "The given `ids` (others' ids are ignored), or all of yours without them.",
    requestBody: jsonBody(markReadSchema),
    responses: {
      "200": json("How many were marked.", z.object({ marked: z.number().int() })),
      ...errors(400, ...signedInErrors, 422),
    },
  },
};
