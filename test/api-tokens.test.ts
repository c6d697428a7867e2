// Personal API tokens through the real route handlers and better-auth accounts: created with a
// session and shown once, listed without secrets, accepted as `Authorization: Bearer` with the
// owner's rights and 404 rules, refused when revoked, expired or unknown, and unable to mint tokens.
// Every token has a scope (research by default) and expires (90 days by default, a year at most, an
// admin token within 90 days); a password change, an admin's reset and signing out everywhere
// revoke all of the account's tokens. Tokens made before scopes are upgraded by the migration.
import { eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createRun } from "../db/queries/runs.ts";
import { apiTokens } from "../db/schema.ts";
import { getRuntime } from "../lib/jobs/runtime.ts";
import { hashToken } from "../lib/secrets.ts";
import { createToken } from "../lib/server/tokens/create.ts";
import { testDatabases } from "./databases.ts";
import {
  appDatabaseKinds,
  authCall,
  call,
  type Person,
  sessionCookie,
  signUp,
  signUpInvited,
  useFreshAppDatabase,
} from "./support/app-session.ts";
import { useDatabaseBefore } from "./support/migrations-before.ts";

type Handler = Parameters<typeof call>[0];

describe.each(appDatabaseKinds())("personal API tokens (%s)", (kind) => {
  let stopApp: () => Promise<void>;
  let alice: Person;
  let bob: Person;
  let tokens: { GET: Handler; POST: Handler };
  let revoke: Handler;
  let runs: { GET: Handler };
  let run: Handler;

  beforeAll(async () => {
    stopApp = await useFreshAppDatabase(kind);
    alice = await signUp("alice@example.org");
    bob = await signUpInvited(alice, "bob@example.org");
    tokens = (await import("../app/api/tokens/route.ts")) as unknown as typeof tokens;
    revoke = (await import("../app/api/tokens/[id]/route.ts")).DELETE as Handler;
    runs = (await import("../app/api/runs/route.ts")) as unknown as typeof runs;
    run = (await import("../app/api/runs/[id]/route.ts")).GET as Handler;
  }, 60_000);
  afterAll(async () => stopApp());

  const bearer = (secret: string) => ({ authorization: `Bearer ${secret}` });

  async function mint(who: Person, body: Record<string, unknown> = { name: "cli" }) {
    const res = await call(tokens.POST, "POST", "/api/tokens", { who, body });
    expect(res.status).toBe(201);
    return (await res.json()) as { id: string; token: string; hint: string; expiresAt: string | null };
  }

  it("shows the secret once, stores only its hash, and lists tokens without secrets", async () => {
    const created = await mint(alice, { name: "editor", expiresInDays: 30, scope: "read" });
    expect(created.token).toMatch(/^drt_[\w-]{40,}$/);
    expect(created.hint).toBe(created.token.slice(-4));
    expect(new Date(created.expiresAt as string).getTime()).toBeGreaterThan(Date.now() + 29 * 86_400_000);
    const db = (await getRuntime()).handle.db;
    const [row] = await db.select().from(apiTokens).where(eq(apiTokens.id, created.id));
    expect(row.tokenHash).toBe(hashToken(created.token));
    expect(JSON.stringify(row)).not.toContain(created.token);

    const listed = await call(tokens.GET, "GET", "/api/tokens", { who: alice });
    const text = await listed.text();
    expect(text).not.toContain(created.token);
    expect(text).not.toContain(row.tokenHash);
    const names = (JSON.parse(text) as { tokens: { name: string }[] }).tokens.map((t) => t.name);
    expect(names).toContain("editor");
    const bobs = (await (await call(tokens.GET, "GET", "/api/tokens", { who: bob })).json()) as {
      tokens: unknown[];
    };
    expect(bobs.tokens).toEqual([]);
  });

  it("acts as its owner: creates and reads runs, and records when it was last used", async () => {
    const { id, token } = await mint(alice);
    const created = await call(runs.GET as Handler, "GET", "/api/runs", { headers: bearer(token) });
    expect(created.status).toBe(200);
    const post = (await import("../app/api/runs/route.ts")).POST as Handler;
    // No Origin and a foreign one alike: a bearer request carries no ambient credentials to forge.
    const res = await call(post, "POST", "/api/runs", {
      headers: { ...bearer(token), origin: "https://elsewhere.example" },
      body: { question: "How do heat pumps work in cold climates?" },
    });
    expect(res.status).toBe(201);
    const runId = ((await res.json()) as { id: string }).id;
    const read = await call(run, "GET", `/api/runs/${runId}`, {
      headers: bearer(token),
      params: { id: runId },
    });
    expect(read.status).toBe(200);
    const db = (await getRuntime()).handle.db;
    const [row] = await db.select().from(apiTokens).where(eq(apiTokens.id, id));
    expect(row.lastUsedAt).toBeInstanceOf(Date);
  });

  it("cannot see another person's run: 404, like a session", async () => {
    const db = (await getRuntime()).handle.db;
    const alices = await createRun(db, { ownerId: alice.userId, question: "Alice's question", settings: {} });
    const { token } = await mint(bob);
    const res = await call(run, "GET", `/api/runs/${alices.id}`, {
      headers: bearer(token),
      params: { id: alices.id },
    });
    expect(res.status).toBe(404);
  });

  it("is refused once revoked, when expired, when unknown, and a token cannot mint tokens", async () => {
    const { id, token } = await mint(alice);
    const forbidden = await call(tokens.POST, "POST", "/api/tokens", {
      headers: bearer(token),
      body: { name: "x" },
    });
    expect(forbidden.status).toBe(403);
    expect(
      (
        await revoke(
          new Request(`http://localhost:3000/api/tokens/${id}`, { method: "DELETE", headers: bearer(token) }),
          { params: Promise.resolve({ id }) },
        )
      ).status,
    ).toBe(204);
    const afterRevoke = await call(runs.GET as Handler, "GET", "/api/runs", { headers: bearer(token) });
    expect(afterRevoke.status).toBe(401);
    expect(((await afterRevoke.json()) as { error: { message: string } }).error.message).toMatch(/revoked/);

    const expired = await mint(alice, { name: "short", expiresInDays: 1 });
    const db = (await getRuntime()).handle.db;
    await db
      .update(apiTokens)
      .set({ expiresAt: new Date(Date.now() - 1000) })
      .where(eq(apiTokens.id, expired.id));
    expect(
      (await call(runs.GET as Handler, "GET", "/api/runs", { headers: bearer(expired.token) })).status,
    ).toBe(401);
    expect(
      (await call(runs.GET as Handler, "GET", "/api/runs", { headers: bearer("drt_unknown") })).status,
    ).toBe(401);
    // A cookie beside a bad token does not rescue it: the token alone decides.
    const both = await call(runs.GET as Handler, "GET", "/api/runs", {
      who: alice,
      headers: bearer("drt_unknown"),
    });
    expect(both.status).toBe(401);
  });

  it("rejects a bad request with a clear 4xx and creates nothing, and 404s other people's token ids", async () => {
    const before = (await (await call(tokens.GET, "GET", "/api/tokens", { who: alice })).json()) as {
      tokens: unknown[];
    };
    for (const body of [
      {},
      { name: "" },
      { name: "x", expiresInDays: 0 },
      { name: "x", expiresInDays: 366 },
      { name: "x", scope: "everything" },
      { name: "x", scope: "admin", expiresInDays: 91 },
      { name: "x", webhookUrl: "ftp://a" },
      { name: "x", extra: 1 },
    ]) {
      const res = await call(tokens.POST, "POST", "/api/tokens", { who: alice, body });
      expect(res.status).toBe(422);
    }
    const after = (await (await call(tokens.GET, "GET", "/api/tokens", { who: alice })).json()) as {
      tokens: unknown[];
    };
    expect(after.tokens.length).toBe(before.tokens.length);
    const { id } = await mint(alice);
    const res = await call(revoke, "DELETE", `/api/tokens/${id}`, { who: bob, params: { id } });
    expect(res.status).toBe(404);
    expect(
      (await call(revoke, "DELETE", "/api/tokens/nope", { who: bob, params: { id: "nope" } })).status,
    ).toBe(404);
    expect((await call(tokens.GET, "GET", "/api/tokens")).status).toBe(401);
  });

  it("is research for 90 days unless asked otherwise, and an admin token is for admins only", async () => {
    const plain = await mint(bob);
    const listed = (await (await call(tokens.GET, "GET", "/api/tokens", { who: bob })).json()) as {
      tokens: { id: string; scope: string; expiresAt: string; scopeFromUpgrade: boolean }[];
    };
    const row = listed.tokens.find((t) => t.id === plain.id);
    expect(row).toMatchObject({ scope: "research", scopeFromUpgrade: false });
    const days = (Date.parse(row?.expiresAt as string) - Date.now()) / 86_400_000;
    expect(days).toBeGreaterThan(89.9);
    expect(days).toBeLessThanOrEqual(90);
    const year = await mint(bob, { name: "year", expiresInDays: 365, scope: "read" });
    expect(Date.parse(year.expiresAt as string)).toBeGreaterThan(Date.now() + 364 * 86_400_000);

    const notAdmin = await call(tokens.POST, "POST", "/api/tokens", {
      who: bob,
      body: { name: "a", scope: "admin" },
    });
    expect(notAdmin.status).toBe(403);
    expect(((await notAdmin.json()) as { error: { message: string } }).error.message).toMatch(
      /Only an admin/,
    );
    const admins = await mint(alice, { name: "monitor", scope: "admin", expiresInDays: 90 });
    expect(Date.parse(admins.expiresAt as string)).toBeLessThanOrEqual(Date.now() + 90 * 86_400_000);

    // Expiry is enforced: a token made 91 days ago with the default lifetime no longer works.
    const rt = await getRuntime();
    const old = await createToken(
      rt,
      { userId: bob.userId, role: "user" },
      { name: "old" },
      new Date(Date.now() - 91 * 86_400_000),
    );
    expect(
      (await call(runs.GET as Handler, "GET", "/api/runs", { headers: bearer(old.secret) })).status,
    ).toBe(401);
  });

  it("revokes every token of the account on a password change, an admin's reset and signing out everywhere", async () => {
    const rt = await getRuntime();
    const works = async (secret: string) =>
      (await call(runs.GET as Handler, "GET", "/api/runs", { headers: bearer(secret) })).status;
    const bobs = async (n = 2) =>
      Promise.all(
        Array.from({ length: n }, (_, i) =>
          createToken(rt, { userId: bob.userId, role: "user" }, { name: `b${i}` }),
        ),
      );
    const alices = await createToken(
      rt,
      { userId: alice.userId, role: "admin" },
      { name: "alice keeps hers" },
    );
    let password = "correct horse battery";
    const signInBob = async () => {
      const res = await authCall("/sign-in/email", { email: bob.email, password });
      expect(res.status).toBe(200);
      bob = { ...bob, cookie: sessionCookie(res) };
    };

    // The owner changes their password.
    let made = await bobs();
    for (const t of made) expect(await works(t.secret)).toBe(200);
    const changed = await authCall(
      "/change-password",
      { currentPassword: password, newPassword: "a new horse battery" },
      bob.cookie,
    );
    expect(changed.status).toBe(200);
    password = "a new horse battery";
    for (const t of made) expect(await works(t.secret)).toBe(401);

    // An admin resets it.
    made = await bobs();
    const reset = await authCall(
      "/admin/set-user-password",
      { userId: bob.userId, newPassword: "set by the admin 1" },
      alice.cookie,
    );
    expect(reset.status).toBe(200);
    password = "set by the admin 1";
    for (const t of made) expect(await works(t.secret)).toBe(401);

    // The owner signs out everywhere, or only their other sessions.
    for (const path of ["/revoke-sessions", "/revoke-other-sessions"]) {
      await signInBob();
      made = await bobs(1);
      expect((await authCall(path, {}, bob.cookie)).status, path).toBe(200);
      expect(await works(made[0].secret), path).toBe(401);
    }

    // An admin signs them out everywhere.
    made = await bobs(1);
    const revoked = await authCall("/admin/revoke-user-sessions", { userId: bob.userId }, alice.cookie);
    expect(revoked.status).toBe(200);
    expect(await works(made[0].secret)).toBe(401);

    // Nobody else's tokens are touched; a refused change revokes nothing.
    expect(await works(alices.secret)).toBe(200);
    await signInBob();
    made = await bobs(1);
    const wrong = await authCall(
      "/change-password",
      { currentPassword: "not the password", newPassword: "whatever horse" },
      bob.cookie,
    );
    expect(wrong.status).toBe(400);
    expect(await works(made[0].secret)).toBe(200);
  });
});

describe.each(testDatabases())("the scoped-token migration on $name", ({ open }) => {
  // The migrations as they were before scopes: the journal cut off before 0012.
  const database = useDatabaseBefore("0012", open);

  it("makes tokens from before research tokens that expire 90 days after the upgrade, marked as such", async () => {
    const handle = await database.open();
    // Raw SQL: the schema in code has columns this database lacks yet.
    await handle.db.execute(sql`insert into users (id, name, email) values ('u1', 'Old', 'old@example.org')`);
    const soon = new Date(Date.now() + 5 * 86_400_000);
    await handle.db.execute(sql`insert into api_tokens (user_id, name, token_hash, hint, expires_at) values
      ('u1', 'forever', 'h1', 'aaaa', null),
      ('u1', 'in ten years', 'h2', 'bbbb', now() + interval '3650 days'),
      ('u1', 'soon', 'h3', 'cccc', ${soon.toISOString()}::timestamptz)`);

    await database.migrateRest();
    const rows = await handle.db.select().from(apiTokens);
    const byName = Object.fromEntries(rows.map((r) => [r.name, r]));
    const in90 = Date.now() + 90 * 86_400_000;
    for (const name of ["forever", "in ten years"]) {
      expect(byName[name]).toMatchObject({ scope: "research", scopeFromUpgrade: true });
      expect(Math.abs(byName[name].expiresAt.getTime() - in90)).toBeLessThan(60_000);
    }
    // An earlier expiry is kept.
    expect(byName.soon).toMatchObject({ scope: "research", scopeFromUpgrade: true });
    expect(Math.abs(byName.soon.expiresAt.getTime() - soon.getTime())).toBeLessThan(1000);
  });
});
