// A person's data through the real route handlers: "Export my data" is one .tar.gz (parsed here)
// with each run's report and records, knowledge and library; "Delete my account" needs a session
// and the typed email, refuses while a run is unfinished and for the last admin, and removes every
// row the person owns in one go while other people's rows stay.
import { gunzipSync } from "node:zlib";
import { eq, inArray, or } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Db } from "../db/client.ts";
import { appendEvent } from "../db/queries/events.ts";
import { addKnowledgeItem } from "../db/queries/knowledge.ts";
import { createRun } from "../db/queries/runs.ts";
import { saveUserLimits } from "../db/queries/user-limits.ts";
import {
  accounts,
  apiTokens,
  directives,
  invitations,
  knowledgeItems,
  libraryDocuments,
  reports,
  runEvents,
  runs,
  sessions,
  shares,
  sources,
  userLimits,
  users,
  webhookDeliveries,
  webhookSecrets,
} from "../db/schema.ts";
import { getRuntime } from "../lib/jobs/runtime.ts";
import {
  appDatabaseKinds,
  authCall,
  call,
  type Person,
  signUp,
  signUpInvited,
  useFreshAppDatabase,
} from "./support/app-session.ts";

type Handler = Parameters<typeof call>[0];

/** The files of a .tar.gz, by name: a reader of the ustar headers the export writes. */
function untar(gz: Uint8Array): Map<string, string> {
  const tar = gunzipSync(gz);
  const files = new Map<string, string>();
  for (let at = 0; at + 512 <= tar.length; ) {
    const header = tar.subarray(at, at + 512);
    if (header.every((b) => b === 0)) break;
    const text = (from: number, length: number) =>
      header
        .subarray(from, from + length)
        .toString("ascii")
        .replace(/\0.*$/s, "");
    const sum = header.reduce((n, b, i) => n + (i >= 148 && i < 156 ? 32 : b), 0);
    expect(Number.parseInt(text(148, 8), 8)).toBe(sum);
    expect(text(257, 6)).toBe("ustar");
    const size = Number.parseInt(text(124, 12), 8);
    files.set(text(0, 100), tar.subarray(at + 512, at + 512 + size).toString("utf8"));
    at += 512 + Math.ceil(size / 512) * 512;
  }
  return files;
}

/** A person's research: a run with report, source, event, directive and share; knowledge; a document. */
async function seed(db: Db, ownerId: string, tag: string) {
  const run = await createRun(db, { ownerId, question: `Ünïcode question about ${tag}?`, settings: {} });
  await db.update(runs).set({ status: "completed", phase: "done" }).where(eq(runs.id, run.id));
  await db.insert(reports).values({
    runId: run.id,
    markdown: `# Report on ${tag}\n\n## Sources\n\n[1] https://example.org/${tag}\n`,
  });
  await db.insert(sources).values({
    runId: run.id,
    url: `https://example.org/${tag}`,
    normalizedUrl: `https://example.org/${tag}`,
    title: `Source on ${tag}`,
  });
  await appendEvent(db, run.id, { type: "phase.started", phase: "brief" });
  await db
    .insert(directives)
    .values({ runId: run.id, ordinal: 1, round: 0, topic: `topic ${tag}`, normalizedTopic: `topic ${tag}` });
  await db.insert(shares).values({ runId: run.id, tokenHash: `share-${tag}` });
  await db
    .insert(webhookDeliveries)
    .values({ runId: run.id, ownerId, url: "https://hooks.example.org", event: "run.completed" });
  await addKnowledgeItem(db, ownerId, { category: "finding", content: `knowledge of ${tag}` });
  await db
    .insert(libraryDocuments)
    .values({ ownerId, title: `Doc of ${tag}`, content: `library text of ${tag}` });
  await db.insert(webhookSecrets).values({ userId: ownerId, secretCipher: `cipher-${tag}` });
  await saveUserLimits(db, ownerId, { maxConcurrentRuns: 2, monthlyCostLimitUsd: 5 });
  return run;
}

describe.each(appDatabaseKinds())("a person's data (%s)", { timeout: 120_000 }, (kind) => {
  let stopApp: () => Promise<void>;
  let alice: Person;
  let bob: Person;
  let carol: Person;
  let bobRun: { id: string };
  let carolRun: { id: string };
  let exportData: Handler;
  let deleteAccount: Handler;
  let mintToken: Handler;
  let listRuns: Handler;
  const db = async () => (await getRuntime()).handle.db;

  beforeAll(async () => {
    stopApp = await useFreshAppDatabase(kind);
    alice = await signUp("alice@example.org");
    bob = await signUpInvited(alice, "bob@example.org");
    carol = await signUpInvited(alice, "carol@example.org");
    exportData = (await import("../app/api/account/export/route.ts")).GET as Handler;
    deleteAccount = (await import("../app/api/account/route.ts")).DELETE as Handler;
    mintToken = (await import("../app/api/tokens/route.ts")).POST as Handler;
    listRuns = (await import("../app/api/runs/route.ts")).GET as Handler;
    bobRun = await seed(await db(), bob.userId, "bob");
    carolRun = await seed(await db(), carol.userId, "carol");
  }, 240_000);
  afterAll(async () => stopApp());

  const remove = (who: Person, body: unknown, headers?: Record<string, string>) =>
    call(deleteAccount, "DELETE", "/api/account", { who, body, headers });

  it("exports the person's runs, knowledge and library as one .tar.gz, and nobody else's", async () => {
    // A page text longer than a slice the export writes at a time, with a surrogate pair across the
    // slice boundary and characters JSON escapes.
    const longText = `${"a".repeat(64 * 1024 - 1)}😀 "quoted"\n\ttab ${"é".repeat(70_000)} end`;
    await (await db()).insert(sources).values({
      runId: bobRun.id,
      url: "https://example.org/long",
      normalizedUrl: "https://example.org/long",
      content: longText,
    });
    const res = await call(exportData, "GET", "/api/account/export", { who: bob });
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("application/gzip");
    expect(res.headers.get("content-disposition")).toMatch(
      /^attachment; filename="deep-research-export-\d{4}-\d{2}-\d{2}\.tar\.gz"$/,
    );
    const files = untar(new Uint8Array(await res.arrayBuffer()));
    const base = `runs/unicode-question-about-bob-${bobRun.id}`;
    expect([...files.keys()].sort()).toEqual(
      [`${base}.json`, `${base}.md`, "knowledge.json", "library.json"].sort(),
    );
    expect(files.get(`${base}.md`)).toBe("# Report on bob\n\n## Sources\n\n[1] https://example.org/bob\n");
    const record = JSON.parse(files.get(`${base}.json`) as string);
    expect(record.run).toMatchObject({ id: bobRun.id, ownerId: bob.userId, status: "completed" });
    expect(record.run).not.toHaveProperty("checkpoint");
    expect(record.sources.map((s: { url: string }) => s.url)).toEqual([
      "https://example.org/bob",
      "https://example.org/long",
    ]);
    expect(record.sources[1].content).toBe(longText);
    // Written piece by piece, laid out as JSON.stringify(…, null, 2) lays it out.
    for (const [name, text] of files) {
      if (name.endsWith(".json")) expect(text, name).toBe(`${JSON.stringify(JSON.parse(text), null, 2)}\n`);
    }
    expect(record.events.map((e: { type: string }) => e.type)).toEqual(["phase.started"]);
    expect(record.directives.map((d: { topic: string }) => d.topic)).toEqual(["topic bob"]);
    expect(
      JSON.parse(files.get("knowledge.json") as string).map((k: { content: string }) => k.content),
    ).toEqual(["knowledge of bob"]);
    expect(
      JSON.parse(files.get("library.json") as string).map((d: { content: string }) => d.content),
    ).toEqual(["library text of bob"]);
    expect([...files.values()].join("\n")).not.toContain("carol");
    expect((await call(exportData, "GET", "/api/account/export")).status).toBe(401);
  });

  it("refuses a token (403), a wrong email (422), an unfinished run (409) and the last admin (409), changing nothing", async () => {
    const minted = await call(mintToken, "POST", "/api/tokens", { who: bob, body: { name: "cli" } });
    const { token } = (await minted.json()) as { token: string };
    const viaToken = await call(deleteAccount, "DELETE", "/api/account", {
      body: { confirmEmail: bob.email },
      headers: { authorization: `Bearer ${token}` },
    });
    expect(viaToken.status).toBe(403);

    const wrong = await remove(bob, { confirmEmail: "carol@example.org" });
    expect(wrong.status).toBe(422);
    expect(((await wrong.json()) as { error: { message: string } }).error.message).toContain(
      "type your email address",
    );

    const d = await db();
    const open = await createRun(d, { ownerId: bob.userId, question: "still going", settings: {} });
    const busy = await remove(bob, { confirmEmail: bob.email });
    expect(busy.status).toBe(409);
    expect(((await busy.json()) as { error: { message: string } }).error.message).toBe(
      "You have 1 run that has not ended. Cancel it first, then delete your account.",
    );
    await d.update(runs).set({ status: "cancelled" }).where(eq(runs.id, open.id));

    const lastAdmin = await remove(alice, { confirmEmail: alice.email });
    expect(lastAdmin.status).toBe(409);
    expect(((await lastAdmin.json()) as { error: { message: string } }).error.message).toContain(
      "last admin",
    );
    expect(
      await d
        .select()
        .from(users)
        .where(inArray(users.id, [alice.userId, bob.userId])),
    ).toHaveLength(2);
    expect(await d.select().from(runs).where(eq(runs.ownerId, bob.userId))).toHaveLength(2);
  });

  it("deletes the account and everything it owns, signs the person out, and leaves other people's data", async () => {
    const d = await db();
    const res = await remove(bob, { confirmEmail: " BOB@example.org " });
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ deleted: true });
    const cleared = res.headers.getSetCookie().filter((c) => c.includes("session_token"));
    expect(cleared.length).toBeGreaterThan(0);
    expect(cleared.every((c) => /Max-Age=0/i.test(c))).toBe(true);

    const owned = async (id: string) => ({
      users: (await d.select().from(users).where(eq(users.id, id))).length,
      sessions: (await d.select().from(sessions).where(eq(sessions.userId, id))).length,
      accounts: (await d.select().from(accounts).where(eq(accounts.userId, id))).length,
      runs: (await d.select().from(runs).where(eq(runs.ownerId, id))).length,
      knowledge: (await d.select().from(knowledgeItems).where(eq(knowledgeItems.ownerId, id))).length,
      library: (await d.select().from(libraryDocuments).where(eq(libraryDocuments.ownerId, id))).length,
      tokens: (await d.select().from(apiTokens).where(eq(apiTokens.userId, id))).length,
      webhookSecrets: (await d.select().from(webhookSecrets).where(eq(webhookSecrets.userId, id))).length,
      deliveries: (await d.select().from(webhookDeliveries).where(eq(webhookDeliveries.ownerId, id))).length,
      limits: (await d.select().from(userLimits).where(eq(userLimits.userId, id))).length,
    });
    expect(await owned(bob.userId)).toEqual({
      users: 0,
      sessions: 0,
      accounts: 0,
      runs: 0,
      knowledge: 0,
      library: 0,
      tokens: 0,
      webhookSecrets: 0,
      deliveries: 0,
      limits: 0,
    });
    const runRows = async (runId: string) => ({
      reports: (await d.select().from(reports).where(eq(reports.runId, runId))).length,
      sources: (await d.select().from(sources).where(eq(sources.runId, runId))).length,
      events: (await d.select().from(runEvents).where(eq(runEvents.runId, runId))).length,
      directives: (await d.select().from(directives).where(eq(directives.runId, runId))).length,
      shares: (await d.select().from(shares).where(eq(shares.runId, runId))).length,
    });
    expect(await runRows(bobRun.id)).toEqual({ reports: 0, sources: 0, events: 0, directives: 0, shares: 0 });
    // Carol's things are all still there.
    expect(await runRows(carolRun.id)).toEqual({
      reports: 1,
      sources: 1,
      events: 1,
      directives: 1,
      shares: 1,
    });
    expect(await owned(carol.userId)).toMatchObject({
      users: 1,
      runs: 1,
      knowledge: 1,
      library: 1,
      webhookSecrets: 1,
      deliveries: 1,
      limits: 1,
    });
    // The invitation alice made for bob stays (it is alice's), marked used by an account that is gone.
    expect(
      await d
        .select()
        .from(invitations)
        .where(or(eq(invitations.createdBy, alice.userId))),
    ).toHaveLength(2);

    // Signed out, and signing in again fails.
    expect((await call(listRuns, "GET", "/api/runs", { who: bob })).status).toBe(401);
    const signIn = await authCall("/sign-in/email", { email: bob.email, password: "correct horse battery" });
    expect(signIn.status).toBe(401);

    // With bob gone, carol may leave too; then alice is the only account and may delete herself.
    expect((await remove(carol, { confirmEmail: carol.email })).status).toBe(200);
    expect((await remove(alice, { confirmEmail: alice.email })).status).toBe(200);
    expect(await d.select().from(users)).toHaveLength(0);
  });
});
