import { desc, eq } from "drizzle-orm";
import type { Db } from "../client.ts";
import { appSettings, type SettingsChange, settingsChanges, users } from "../schema.ts";

/** Every stored settings area as `key → value` (not yet validated). */
export async function readAppSettings(db: Db): Promise<Record<string, Record<string, unknown>>> {
  const rows = await db.select({ key: appSettings.key, value: appSettings.value }).from(appSettings);
  return Object.fromEntries(rows.map((r) => [r.key, r.value]));
}

export async function writeAppSetting(
  db: Db,
  key: string,
  value: Record<string, unknown>,
  actorId: string,
): Promise<void> {
  const now = new Date();
  await db
    .insert(appSettings)
    .values({ key, value, updatedBy: actorId, updatedAt: now })
    .onConflictDoUpdate({ target: appSettings.key, set: { value, updatedBy: actorId, updatedAt: now } });
}

export async function recordSettingsChanges(
  db: Db,
  actorId: string,
  key: string,
  summaries: string[],
): Promise<void> {
  if (summaries.length === 0) return;
  await db.insert(settingsChanges).values(summaries.map((summary) => ({ actorId, key, summary })));
}

export type SettingsChangeRow = SettingsChange & { actorName: string | null; actorEmail: string | null };

/** The newest changes first, with who made them. */
export function listSettingsChanges(db: Db, limit = 50): Promise<SettingsChangeRow[]> {
  return db
    .select({
      id: settingsChanges.id,
      actorId: settingsChanges.actorId,
      key: settingsChanges.key,
      summary: settingsChanges.summary,
      createdAt: settingsChanges.createdAt,
      actorName: users.name,
      actorEmail: users.email,
    })
    .from(settingsChanges)
    .leftJoin(users, eq(users.id, settingsChanges.actorId))
    .orderBy(desc(settingsChanges.createdAt))
    .limit(limit);
}
