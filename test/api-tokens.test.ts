// Personal API tokens through the real route handlers and better-auth accounts: created with a
// session and shown once, listed without secrets, accepted as `Authorization: Bearer` with the
// owner's rights and 404 rules, refused when revoked, expired or unknown, and unable to mint tokens.
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createRun } from "../db/queries/runs.ts";
import { apiTokens } from "../db/schema.ts";
import { getRuntime } from "../lib/jobs/runtime.ts";
import { hashToken } from "../lib/secrets.ts";
import {
  appDatabaseKinds,
  call,
  type Person,
  signUp,
  signUpInvited,
  useFreshAppDatabase,
} from "./support/app-session.ts";

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
    const created = await mint(alice, { name: "editor", expiresInDays: 30 });
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
});
