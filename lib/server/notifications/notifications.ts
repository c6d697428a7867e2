/**
 * In-app notices (GET /api/notifications, POST /api/notifications/read, the header's bell): a new
 * version of a report that differs from the one before, a schedule paused by the owner's limits.
 * Each person sees and marks only their own.
 */
import { z } from "zod";
import { countUnread, listNotifications, markNotificationsRead } from "../../../db/queries/notifications.ts";
import type { NotificationKind } from "../../../db/schema.ts";
import type { Runtime } from "../../jobs/runtime.ts";

/** How many notices the list carries (newest first); older ones stay stored. */
export const NOTIFICATIONS_SHOWN = 50;

export interface NotificationView {
  id: string;
  kind: NotificationKind;
  /** The run the notice links to. */
  runId: string;
  data: Record<string, unknown>;
  createdAt: Date;
  readAt: Date | null;
}

export interface NotificationList {
  unread: number;
  notifications: NotificationView[];
}

export async function listMyNotifications(rt: Runtime, ownerId: string): Promise<NotificationList> {
  const db = rt.handle.db;
  const rows = await listNotifications(db, ownerId, NOTIFICATIONS_SHOWN);
  return {
    unread: await countUnread(db, ownerId),
    notifications: rows.map(({ id, kind, runId, data, createdAt, readAt }) => ({
      id,
      kind,
      runId,
      data,
      createdAt,
      readAt,
    })),
  };
}

export const markReadSchema = z.strictObject({
  ids: z
    .array(z.uuid())
    .max(200)
    .optional()
    .meta({ description: "The notices to mark read; without it, all of yours." }),
});
export type MarkReadInput = z.infer<typeof markReadSchema>;

/** Marks the caller's notices read (others' ids are ignored, as if they did not exist). */
export async function markNotificationsReadFor(
  rt: Runtime,
  ownerId: string,
  input: MarkReadInput,
): Promise<{ marked: number }> {
  return { marked: await markNotificationsRead(rt.handle.db, ownerId, input.ids ?? null) };
}
