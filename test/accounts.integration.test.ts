// Accounts and ownership through the real route handlers and better-auth, on embedded PGlite and
// (with TEST_DATABASE_URL) PostgreSQL: sign-up rules, the upgrade of pre-account data, 401 for
// anonymous callers, 404 for other people's things, admin rules, and refused cross-site writes.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  appDatabaseKinds,
  authCall,
  call,
  type Person,
  sessionCookie,
  signUp,
  useFreshAppDatabase,
} from "./support/app-session.ts";

const routes = async () => ({
  runs: await import("../app/api/runs/route.ts"),
  run: await import("../app/api/runs/[id]/route.ts"),
  events: await import("../app/api/runs/[id]/events/route.ts"),
  report: await import("../app/api/runs/[id]/report.md/route.ts"),
  cancel: await import("../app/api/runs/[id]/cancel/route.ts"),
  directives: await import("../app/api/runs/[id]/directives/route.ts"),
  shares: await import("../app/api/runs/[id]/shares/route.ts"),
  share: await import("../app/api/shares/[shareId]/route.ts"),
  knowledge: await import("../app/api/knowledge/route.ts"),
  knowledgeItem: await import("../app/api/knowledge/[id]/route.ts"),
  library: await import("../app/api/library/route.ts"),
  document: await import("../app/api/library/[id]/route.ts"),
  invitations: await import("../app/api/invitations/route.ts"),
});

for (const kind of appDatabaseKinds()) {
  describe(`accounts and ownership (${kind})`, () => {
    let stop: () => Promise<void>;
    let r: Awaited<ReturnType<typeof routes>>;
    let alice: Person;
    let bob: Person;
    let legacyRunId: string;
    let aliceRun: string;

    beforeAll(async () => {
      stop = await useFreshAppDatabase(kind);
      r = await routes();
      // A run made before accounts existed, owned by the single local owner.
      const { getRuntime } = await import("../lib/jobs/runtime.ts");
      const { createRun } = await import("../db/queries/runs.ts");
      const { handle } = await getRuntime();
      legacyRunId = (
        await createRun(handle.db, { ownerId: "local", question: "Older question?", settings: {} })
      ).id;
    }, 60_000);
    afterAll(async () => stop?.());

    it("the first account signs up freely, becomes admin and adopts the data made before accounts", async () => {
      alice = await signUp("alice@example.org");
      const list = await (await call(r.runs.GET, "GET", "/api/runs", { who: alice })).json();
      expect(list.runs.map((x: { id: string }) => x.id)).toContain(legacyRunId);
      const inv = await call(r.invitations.GET, "GET", "/api/invitations", { who: alice });
      expect(inv.status).toBe(200);
    });

    it("later sign-ups need a valid, unused invitation (SIGNUP=invite)", async () => {
      const without = await authCall("/sign-up/email", {
        email: "bob@example.org",
        password: "pw-bob-123456",
        name: "Bob",
      });
      expect(without.status).toBe(403);
      expect(await without.text()).toMatch(/invitation is required/i);
      const wrong = await authCall("/sign-up/email", {
        email: "bob@example.org",
        password: "pw-bob-123456",
        name: "Bob",
        invite: "not-a-real-invitation",
      });
      expect(wrong.status).toBe(403);

      const created = await call(r.invitations.POST, "POST", "/api/invitations", {
        who: alice,
        body: { email: "bob@example.org" },
      });
      expect(created.status).toBe(201);
      const { invitation } = await created.json();
      const token = new URL(invitation.url).searchParams.get("invite") as string;
      const forOther = await authCall("/sign-up/email", {
        email: "eve@example.org",
        password: "pw-eve-123456",
        name: "Eve",
        invite: token,
      });
      expect(forOther.status).toBe(403);
      bob = await signUp("bob@example.org", { invite: token });
      const again = await authCall("/sign-up/email", {
        email: "bob2@example.org",
        password: "pw-bob-123456",
        name: "B",
        invite: token,
      });
      expect(again.status).toBe(403);
      const listed = await (await call(r.invitations.GET, "GET", "/api/invitations", { who: alice })).json();
      expect(listed.invitations[0]).toMatchObject({ email: "bob@example.org", state: "used" });
      expect(JSON.stringify(listed)).not.toContain(token);
    });

    it("anonymous callers get 401 on every private route", async () => {
      for (const [handler, method, url] of [
        [r.runs.GET, "GET", "/api/runs"],
        [r.runs.POST, "POST", "/api/runs"],
        [r.knowledge.GET, "GET", "/api/knowledge"],
        [r.library.GET, "GET", "/api/library"],
      ] as const) {
        const res = await call(
          handler,
          method,
          url,
          method === "POST" ? { body: { question: "Anonymous?" } } : {},
        );
        expect(res.status, url).toBe(401);
        expect((await res.json()).error.code).toBe("unauthorized");
      }
    });

    it("another person's run, events, report, actions and shares are 404, and never listed", async () => {
      const created = await call(r.runs.POST, "POST", "/api/runs", {
        who: alice,
        body: { question: "Alice's question?" },
      });
      expect(created.status).toBe(201);
      aliceRun = (await created.json()).id;
      const params = { id: aliceRun };
      const checks: [string, Promise<Response>][] = [
        ["run", call(r.run.GET, "GET", `/api/runs/${aliceRun}`, { who: bob, params })],
        ["events", call(r.events.GET, "GET", `/api/runs/${aliceRun}/events`, { who: bob, params })],
        ["report.md", call(r.report.GET, "GET", `/api/runs/${aliceRun}/report.md`, { who: bob, params })],
        ["cancel", call(r.cancel.POST, "POST", `/api/runs/${aliceRun}/cancel`, { who: bob, params })],
        [
          "directives",
          call(r.directives.POST, "POST", `/api/runs/${aliceRun}/directives`, {
            who: bob,
            params,
            body: { topic: "Bob's topic", priority: "high" },
          }),
        ],
        ["shares", call(r.shares.GET, "GET", `/api/runs/${aliceRun}/shares`, { who: bob, params })],
        ["share create", call(r.shares.POST, "POST", `/api/runs/${aliceRun}/shares`, { who: bob, params })],
      ];
      for (const [name, pending] of checks) {
        const res = await pending;
        expect(res.status, name).toBe(404);
        expect((await res.json()).error.code, name).toBe("not_found");
      }
      const bobList = await (await call(r.runs.GET, "GET", "/api/runs", { who: bob })).json();
      expect(bobList.runs).toEqual([]);
      const own = await call(r.run.GET, "GET", `/api/runs/${aliceRun}`, { who: alice, params });
      expect(own.status).toBe(200);
      expect((await own.json()).status).not.toBe("cancelled");

      const share = await call(r.shares.POST, "POST", `/api/runs/${aliceRun}/shares`, { who: alice, params });
      expect(share.status).toBe(201);
      const shareId = (await share.json()).id;
      const revoke = await call(r.share.DELETE, "DELETE", `/api/shares/${shareId}`, {
        who: bob,
        params: { shareId },
      });
      expect(revoke.status).toBe(404);
    });

    it("knowledge items and library documents are per person; an admin may share them with everyone", async () => {
      const item = await call(r.knowledge.POST, "POST", "/api/knowledge", {
        who: alice,
        body: { category: "finding", content: "Alice's private fact about soils." },
      });
      expect(item.status).toBe(201);
      const itemId = (await item.json()).item.id;
      const bobKnowledge = await (await call(r.knowledge.GET, "GET", "/api/knowledge", { who: bob })).json();
      expect(bobKnowledge.items).toEqual([]);
      const bobEdit = await call(r.knowledgeItem.PATCH, "PATCH", `/api/knowledge/${itemId}`, {
        who: bob,
        params: { id: itemId },
        body: { action: "reject" },
      });
      expect(bobEdit.status).toBe(404);

      const doc = await call(r.library.POST, "POST", "/api/library", {
        who: alice,
        body: { text: "Alice's notes on loam." },
      });
      expect(doc.status).toBe(201);
      const docId = (await doc.json()).id;
      const p = { params: { id: docId } };
      expect((await call(r.document.GET, "GET", `/api/library/${docId}`, { who: bob, ...p })).status).toBe(
        404,
      );
      expect(
        (await call(r.document.DELETE, "DELETE", `/api/library/${docId}`, { who: bob, ...p })).status,
      ).toBe(404);
      expect(
        (await (await call(r.library.GET, "GET", "/api/library", { who: bob })).json()).documents,
      ).toEqual([]);

      // Bob is not an admin: he cannot share his own things with everyone.
      const bobDoc = (
        await (
          await call(r.library.POST, "POST", "/api/library", { who: bob, body: { text: "Bob's." } })
        ).json()
      ).id;
      const bobShare = await call(r.document.PATCH, "PATCH", `/api/library/${bobDoc}`, {
        who: bob,
        params: { id: bobDoc },
        body: { shared: true },
      });
      expect(bobShare.status).toBe(403);

      const shared = await call(r.document.PATCH, "PATCH", `/api/library/${docId}`, {
        who: alice,
        ...p,
        body: { shared: true },
      });
      expect(shared.status).toBe(200);
      const seen = await call(r.document.GET, "GET", `/api/library/${docId}`, { who: bob, ...p });
      expect(seen.status).toBe(200);
      expect((await seen.json()).document).toMatchObject({ shared: true, own: false });
      expect(
        (await call(r.document.DELETE, "DELETE", `/api/library/${docId}`, { who: bob, ...p })).status,
      ).toBe(404);

      const sharedItem = await call(r.knowledgeItem.PATCH, "PATCH", `/api/knowledge/${itemId}`, {
        who: alice,
        params: { id: itemId },
        body: { action: "share" },
      });
      expect(sharedItem.status).toBe(200);
      const nowSeen = await (await call(r.knowledge.GET, "GET", "/api/knowledge", { who: bob })).json();
      expect(nowSeen.items.map((i: { id: string }) => i.id)).toEqual([itemId]);
      const stillNoEdit = await call(r.knowledgeItem.PATCH, "PATCH", `/api/knowledge/${itemId}`, {
        who: bob,
        params: { id: itemId },
        body: { action: "reject" },
      });
      expect(stillNoEdit.status).toBe(404);
    });

    it("refuses cross-site and non-JSON writes with 403 and changes nothing", async () => {
      const count = async () =>
        (await (await call(r.runs.GET, "GET", "/api/runs", { who: alice })).json()).runs.length;
      const before = await count();
      const attempts: { headers: Record<string, string> }[] = [
        { headers: { origin: "https://evil.example", "content-type": "application/json" } },
        { headers: { "sec-fetch-site": "cross-site", "content-type": "application/json" } },
        { headers: { "content-type": "text/plain" } },
        { headers: { "content-type": "application/x-www-form-urlencoded" } },
      ];
      for (const a of attempts) {
        const res = await call(r.runs.POST, "POST", "/api/runs", {
          who: alice,
          headers: a.headers,
          body: JSON.stringify({ question: "Forged question?" }),
        });
        expect(res.status, JSON.stringify(a.headers)).toBe(403);
        expect((await res.json()).error.code).toBe("forbidden");
      }
      const form = new FormData();
      form.set("text", "forged");
      const { POST } = r.library;
      const upload = await POST(
        new Request("http://localhost:3000/api/library", {
          method: "POST",
          headers: { cookie: alice.cookie, origin: "https://evil.example" },
          body: form,
        }),
      );
      expect(upload.status).toBe(403);
      const cancel = await call(r.cancel.POST, "POST", `/api/runs/${aliceRun}/cancel`, {
        who: alice,
        params: { id: aliceRun },
        headers: { origin: "https://evil.example" },
      });
      expect(cancel.status).toBe(403);
      expect(await count()).toBe(before);
      const run = await (
        await call(r.run.GET, "GET", `/api/runs/${aliceRun}`, { who: alice, params: { id: aliceRun } })
      ).json();
      expect(run.status).not.toBe("cancelled");
    });

    it("admins reset passwords and disable accounts; the last admin stays", async () => {
      const demote = await authCall("/admin/set-role", { userId: alice.userId, role: "user" }, alice.cookie);
      expect(demote.status).toBe(400);
      expect(await demote.text()).toMatch(/last admin/i);
      const byBob = await authCall(
        "/admin/set-user-password",
        { userId: alice.userId, newPassword: "taken-over-1" },
        bob.cookie,
      );
      expect(byBob.status).toBe(403);
      const reset = await authCall(
        "/admin/set-user-password",
        { userId: bob.userId, newPassword: "new-password-for-bob" },
        alice.cookie,
      );
      expect(reset.status).toBe(200);
      const signIn = await authCall("/sign-in/email", { email: bob.email, password: "new-password-for-bob" });
      expect(signIn.status).toBe(200);
      const fresh = sessionCookie(signIn);
      const impersonate = await authCall("/admin/impersonate-user", { userId: bob.userId }, alice.cookie);
      expect(impersonate.status).toBe(404);

      const ban = await authCall("/admin/ban-user", { userId: bob.userId }, alice.cookie);
      expect(ban.status).toBe(200);
      const after = await call(r.runs.GET, "GET", "/api/runs", { who: { ...bob, cookie: fresh } });
      expect(after.status).toBe(401);
      const again = await authCall("/sign-in/email", { email: bob.email, password: "new-password-for-bob" });
      expect(again.status).toBe(403);
    });
  });
}
