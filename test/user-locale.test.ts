// The language a person chose in the switcher is kept on their account (users.locale), so it
// follows them to another browser; null until they choose.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { DatabaseHandle } from "../db/client.ts";
import { findUserLocale, saveUserLocale } from "../db/queries/user-locale.ts";
import { users } from "../db/schema.ts";
import { openMigratedPglite } from "./support/db-template.ts";

describe("a person's saved UI language", () => {
  let h: DatabaseHandle;
  beforeAll(async () => {
    h = await openMigratedPglite();
    await h.db.insert(users).values({ id: "u1", name: "Uta", email: "uta@example.org" });
  }, 60_000);
  afterAll(async () => h?.close());

  it("is none until chosen, then the choice, and the latest choice wins", async () => {
    expect(await findUserLocale(h.db, "u1")).toBeNull();
    await saveUserLocale(h.db, "u1", "de");
    expect(await findUserLocale(h.db, "u1")).toBe("de");
    await saveUserLocale(h.db, "u1", "zh");
    expect(await findUserLocale(h.db, "u1")).toBe("zh");
    expect(await findUserLocale(h.db, "nobody")).toBeNull();
  });
});
