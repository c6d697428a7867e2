/** In-app notices: each person's own, newest first. */
import { and, count, desc, eq, inArray, isNull } from "drizzle-orm";
import type { Db } from "../client.ts";
import { type Notification, type NotificationKind, notifications } from "../schema.ts";

export async function insertNotification(
  db: Db,
  values: { ownerId: string; kind: NotificationKind; runId: string; data: Record<string, unknown> },
): Promise<Notification> {
  const [row] = await db.insert(notifications).values(values).returning();
  return row;
}

export async function listNotifications(db: Db, ownerId: string, limit: number): Promise<Notification[]> {
  return db
    .select()
    .from(notifications)
    .where(eq(notifications.ownerId, ownerId))
    .orderBy(desc(notifications.createdAt), desc(notifications.id))
    .limit(limit);
}

export async function countUnread(db: Db, ownerId: string): Promise<number> {
  const [row] = await db
    .select({ n: count() })
    .from(notifications)
    .where(and(eq(notifications.ownerId, ownerId), isNull(notifications.readAt)));
  return row?.n ?? 0;
}

/** Marks the owner's notices read: the given ones, or all when `ids` is null. Returns how many. */
export async function markNotificationsRead(db: Db, ownerId: string, ids: string[] | null): Promise<number> {
  const mine = and(eq(notifications.ownerId, ownerId), isNull(notifications.readAt));
  const rows = await db
    .update(notifications)
    .set({ readAt: new Date() })
    .where(ids ? and(mine, inArray(notifications.id, ids)) : mine)
    .returning({ id: notifications.id });
  return rows.length;
}
