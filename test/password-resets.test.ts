// A password an admin sets is temporary and never silent: through better-auth's real routes, the
// reset is recorded with the admin (and in the audit log every admin sees), every sign-in while it is
// the password is recorded with its time, address and browser — the admin's own sign-in as that
// person included — and the owner's account page lists them. The reset signs the person out. Setting their own password ends the
// temporary one but keeps the list; a second reset ends the first; ordinary sign-ins are not recorded.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { getRuntime } from "../lib/jobs/runtime.ts";
import { passwordResetsOf } from "../lib/server/accounts/password-resets.ts";
import { auditLog } from "../lib/server/operations/audit.ts";
import {
  authCall,
  call,
  type Person,
  sessionCookie,
  signUp,
  signUpInvited,
  useFreshAppDatabase,
} from "./support/app-session.ts";

const from = (address: string, browser: string) => ({ "x-forwarded-for": address, "user-agent": browser });

describe("passwords set by an admin", () => {
  let stopApp: () => Promise<void>;
  let alice: Person;
  let bob: Person;
  const resets = async () => passwordResetsOf(await getRuntime(), bob.userId);
  const signIn = async (password: string, headers: Record<string, string>) => {
    const res = await authCall("/sign-in/email", { email: bob.email, password }, undefined, headers);
    expect(res.status).toBe(200);
    return sessionCookie(res);
  };

  beforeAll(async () => {
    stopApp = await useFreshAppDatabase("pglite");
    alice = await signUp("alice@example.org");
    bob = await signUpInvited(alice, "bob@example.org");
  }, 60_000);
  afterAll(async () => stopApp?.());

  it("lists the reset, its admin and every sign-in with that password on the owner's account", async () => {
    expect(await resets()).toEqual([]);
    await signIn("correct horse battery", from("192.0.2.10", "Bob's laptop"));
    expect(await resets()).toEqual([]); // the owner's own password: nothing is recorded

    const reset = await authCall(
      "/admin/set-user-password",
      { userId: bob.userId, newPassword: "temporary horse 1" },
      alice.cookie,
      { "x-forwarded-for": "203.0.113.5" },
    );
    expect(reset.status).toBe(200);
    // Sessions made with the old password are over.
    const { GET } = await import("../app/api/runs/route.ts");
    expect((await call(GET, "GET", "/api/runs", { who: bob })).status).toBe(401);
    // The admin tries the password themselves, then the owner signs in with it.
    await signIn("temporary horse 1", from("198.51.100.7", "Admin's browser"));
    bob = { ...bob, cookie: await signIn("temporary horse 1", from("192.0.2.10", "Bob's laptop")) };

    const [listed] = await resets();
    expect(listed).toMatchObject({ resetByEmail: "alice@example.org", endedAt: null, endReason: null });
    expect(listed.signIns).toEqual([
      expect.objectContaining({ ipAddress: "198.51.100.7", userAgent: "Admin's browser" }),
      expect.objectContaining({ ipAddress: "192.0.2.10", userAgent: "Bob's laptop" }),
    ]);
    expect(Date.parse(listed.signIns[0].at)).toBeGreaterThanOrEqual(Date.parse(listed.createdAt));

    // Every admin sees who reset whose password.
    const [entry] = await auditLog(await getRuntime());
    expect(entry).toMatchObject({
      action: "password_reset",
      actorEmail: "alice@example.org",
      subjectEmail: "bob@example.org",
      ipAddress: "203.0.113.5",
    });
  });

  it("ends when the owner sets their own password, and the list stays", async () => {
    const changed = await authCall(
      "/change-password",
      { currentPassword: "temporary horse 1", newPassword: "bob's own horse" },
      bob.cookie,
    );
    expect(changed.status).toBe(200);
    await signIn("bob's own horse", from("192.0.2.10", "Bob's laptop"));
    const [ended] = await resets();
    expect(ended.endReason).toBe("owner_changed");
    expect(ended.endedAt).not.toBeNull();
    expect(ended.signIns).toHaveLength(2); // the sign-in with the owner's own password is not added
  });

  it("a second reset ends an open first one; each keeps its own sign-ins", async () => {
    for (const newPassword of ["temporary horse 2", "temporary horse 3"]) {
      const res = await authCall(
        "/admin/set-user-password",
        { userId: bob.userId, newPassword },
        alice.cookie,
      );
      expect(res.status).toBe(200);
    }
    await signIn("temporary horse 3", from("192.0.2.11", "Bob's phone"));
    const [third, second, first] = await resets();
    expect(third).toMatchObject({ endedAt: null });
    expect(third.signIns.map((s) => s.ipAddress)).toEqual(["192.0.2.11"]);
    expect(second).toMatchObject({ endReason: "reset_again", signIns: [] });
    expect(first.signIns).toHaveLength(2);
  });
});
