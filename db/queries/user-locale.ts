/** The UI language a person saved with the language switcher. */
import { eq } from "drizzle-orm";
import type { Db } from "../client.ts";
import { users } from "../schema.ts";

export async function findUserLocale(db: Db, userId: string): Promise<string | null> {
  const [row] = await db.select({ locale: users.locale }).from(users).where(eq(users.id, userId));
  return row?.locale ?? null;
}

export async function saveUserLocale(db: Db, userId: string, locale: string): Promise<void> {
  await db.update(users).set({ locale, updatedAt: new Date() }).where(eq(users.id, userId));
}
