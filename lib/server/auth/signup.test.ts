// Who may sign up, by SIGNUP mode, against a real (in-memory PGlite) database: the first account
// always; then open lets anyone in, closed nobody, invite only with a live invitation.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { DatabaseHandle } from "../../../db/client.ts";
import { insertInvitation } from "../../../db/queries/accounts.ts";
import { users } from "../../../db/schema.ts";
import { openMigratedPglite } from "../../../test/support/db-template.ts";
import { hashInvitationToken } from "./invitation-token.ts";
import { admitSignup, settleSignup } from "./signup.ts";

let h: DatabaseHandle;
beforeAll(async () => {
  h = await openMigratedPglite();
}, 60_000);
afterAll(async () => h.close());

const body = (invite?: string) => ({ email: "new@example.org", password: "pw", name: "New", invite });

describe("admitSignup", () => {
  it("lets the first account in whatever the mode", async () => {
    await expect(admitSignup(h.db, "closed", body())).resolves.toBeUndefined();
    await h.db
      .insert(users)
      .values({ id: "admin-1", name: "Admin", email: "admin@example.org", role: "admin" });
  });

  it("open: anyone; closed: nobody, with a message that says so", async () => {
    await expect(admitSignup(h.db, "open", body())).resolves.toBeUndefined();
    await expect(admitSignup(h.db, "closed", body())).rejects.toMatchObject({
      message: "Sign-up is closed on this instance.",
    });
  });

  it("invite: needs a live invitation, claims it once, and frees it when the sign-up then fails", async () => {
    await expect(admitSignup(h.db, "invite", body())).rejects.toMatchObject({
      message: expect.stringMatching(/invitation is required/),
    });
    const token = "tok-123";
    await insertInvitation(h.db, {
      tokenHash: hashInvitationToken(token),
      email: null,
      createdBy: "admin-1",
      expiresAt: new Date(Date.now() + 60_000),
    });
    await expect(admitSignup(h.db, "invite", body(token))).resolves.toBeUndefined();
    // Claimed: a second sign-up with it is refused...
    await expect(admitSignup(h.db, "invite", body(token))).rejects.toMatchObject({
      message: expect.stringMatching(/cannot be used/),
    });
    // ...until the first sign-up fails (no account made) and the invitation is released.
    await settleSignup(h.db, body(token), null);
    await expect(admitSignup(h.db, "invite", body(token))).resolves.toBeUndefined();
    await h.db.insert(users).values({ id: "user-2", name: "New", email: "new@example.org" });
    await settleSignup(h.db, body(token), "user-2");
    await settleSignup(h.db, body(token), null);
    await expect(admitSignup(h.db, "invite", body(token))).rejects.toMatchObject({
      message: expect.stringMatching(/cannot be used/),
    });
  });

  it("invite: an expired invitation is refused", async () => {
    const token = "tok-old";
    await insertInvitation(h.db, {
      tokenHash: hashInvitationToken(token),
      email: null,
      createdBy: "admin-1",
      expiresAt: new Date(Date.now() - 1000),
    });
    await expect(admitSignup(h.db, "invite", body(token))).rejects.toMatchObject({
      message: expect.stringMatching(/expired/),
    });
  });
});
