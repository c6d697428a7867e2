// Share links on both databases: only the token's hash is stored, a link dies when revoked or
// expired, the list never shows a token, the shared report marks library sources as private, and
// the migration that introduced the hash keeps links made before it working.
import { createHash } from "node:crypto";
import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { DatabaseHandle } from "../db/client.ts";
import { createRun } from "../db/queries/runs.ts";
import { runForShareToken, shareTokenHash } from "../db/queries/shares.ts";
import { citations, reports, runQuestions, shares, sources } from "../db/schema.ts";
import { createRunBus } from "../lib/jobs/bus.ts";
import type { Runtime } from "../lib/jobs/runtime.ts";
import { shareRun } from "../lib/server/shares/create.ts";
import { listRunShares } from "../lib/server/shares/list.ts";
import { readShareRequest } from "../lib/server/shares/requests.ts";
import { revokeOwnShare } from "../lib/server/shares/revoke.ts";
import { sharedSourceView } from "../lib/server/shares/source.ts";
import { deadShareReason, sharedReport } from "../lib/server/shares/view.ts";
import { testDatabases } from "./databases.ts";
import { useDatabaseBefore } from "./support/migrations-before.ts";

const DAY = 24 * 60 * 60 * 1000;
const rows = (result: unknown) =>
  (Array.isArray(result) ? result : (result as { rows: unknown[] }).rows) as Record<string, unknown>[];

describe.each(testDatabases())("share links on $name", ({ open }) => {
  let handle: DatabaseHandle;
  let rt: Runtime;
  beforeAll(async () => {
    handle = await open();
    rt = { handle, bus: await createRunBus(handle) };
  });
  afterAll(async () => {
    await rt?.bus.close();
    await handle?.close();
  });

  const newRun = (ownerId = "alice") => createRun(handle.db, { ownerId, question: "Shared?", settings: {} });

  it("stores only the SHA-256 of the token, and the token opens the report", async () => {
    const run = await newRun();
    await handle.db.insert(reports).values({ runId: run.id, markdown: "# Report\n\nText." });
    const { share, token } = await shareRun(rt, run.id, "alice", { label: "for Bob" });
    expect(token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    const stored = rows(await handle.db.execute(sql`select * from shares where id = ${share.id}`))[0];
    expect(stored.token_hash).toBe(createHash("sha256").update(token).digest("hex"));
    expect(JSON.stringify(stored)).not.toContain(token);
    expect(stored.label).toBe("for Bob");
    expect(stored.expires_at).toBeNull();

    const shared = await sharedReport(rt, token);
    expect(shared?.question).toBe("Shared?");
    expect(shared?.report?.markdown).toBe("# Report\n\nText.");
    // The hash itself is not a token: presenting it opens nothing.
    expect(await sharedReport(rt, shareTokenHash(token))).toBeUndefined();
    expect(await sharedReport(rt, `${token}x`)).toBeUndefined();
  });

  it("a link with an expiry opens the report until then and not after", async () => {
    const run = await newRun();
    const now = new Date("2030-01-01T00:00:00Z");
    const { share, token } = await shareRun(rt, run.id, "alice", { expiresInDays: 7 }, now);
    expect(share.expiresAt?.toISOString()).toBe("2030-01-08T00:00:00.000Z");
    expect(await sharedReport(rt, token, new Date(now.getTime() + 6 * DAY))).toBeDefined();
    expect(await sharedReport(rt, token, new Date(now.getTime() + 7 * DAY))).toBeUndefined();
    expect(await sharedReport(rt, token, new Date(now.getTime() + 30 * DAY))).toBeUndefined();
  });

  it("a revoked link opens nothing, and only the run's owner may revoke it", async () => {
    const run = await newRun();
    const { share, token } = await shareRun(rt, run.id, "alice", {});
    await expect(revokeOwnShare(rt, share.id, "mallory")).rejects.toMatchObject({ code: "not_found" });
    expect(await sharedReport(rt, token)).toBeDefined();
    await revokeOwnShare(rt, share.id, "alice");
    expect(await sharedReport(rt, token)).toBeUndefined();
    const [listed] = await listRunShares(rt, run.id, "alice");
    expect(listed.revokedAt).toBeInstanceOf(Date);
  });

  it("says why a link opens nothing: unknown, expired or revoked (revoked first)", async () => {
    const run = await newRun();
    const now = new Date("2030-01-01T00:00:00Z");
    const { share, token } = await shareRun(rt, run.id, "alice", { expiresInDays: 1 }, now);
    expect(await deadShareReason(rt, "x".repeat(43), now)).toBe("unknown");
    expect(await deadShareReason(rt, "not a token", now)).toBe("unknown");
    expect(await deadShareReason(rt, token, new Date(now.getTime() + 2 * DAY))).toBe("expired");
    await revokeOwnShare(rt, share.id, "alice");
    expect(await deadShareReason(rt, token, now)).toBe("revoked");
    expect(await deadShareReason(rt, token, new Date(now.getTime() + 2 * DAY))).toBe("revoked");
  });

  it("lists a run's links to its owner only, without token or hash", async () => {
    const run = await newRun();
    await shareRun(rt, run.id, "alice", { label: "one" });
    await shareRun(rt, run.id, "alice", { label: "two", expiresInDays: 1 });
    const list = await listRunShares(rt, run.id, "alice");
    expect(list.map((s) => s.label)).toEqual(["one", "two"]);
    for (const s of list)
      expect(Object.keys(s).sort()).toEqual([
        "allowDownload",
        "createdAt",
        "expiresAt",
        "id",
        "includeThread",
        "label",
        "revokedAt",
      ]);
    await expect(listRunShares(rt, run.id, "bob")).rejects.toMatchObject({ code: "not_found" });
    await expect(shareRun(rt, run.id, "bob", {})).rejects.toMatchObject({ code: "not_found" });
  });

  it("tells the share page which sources came from the private library", async () => {
    const run = await newRun();
    const source = (url: string, provider: string) => ({
      runId: run.id,
      url,
      normalizedUrl: url,
      title: url,
      provider,
    });
    await handle.db
      .insert(sources)
      .values([
        source("https://web.example/page", "searxng"),
        source("https://intranet.example/memo", "library"),
        source("library://0b6f1c1e-4c59-4a0e-9a43-3f3f3c7a6c01", "library"),
        source("https://fetched.example/x", "fetch"),
      ]);
    const { token } = await shareRun(rt, run.id, "alice", {});
    const shared = await sharedReport(rt, token);
    expect(shared?.report).toBeUndefined();
    expect(new Set(shared?.privateSourceUrls)).toEqual(
      new Set(["https://intranet.example/memo", "library://0b6f1c1e-4c59-4a0e-9a43-3f3f3c7a6c01"]),
    );
  });

  it("keeps a private document's passage and the support check's reason (its paraphrase) off the share page", async () => {
    const run = await newRun();
    const [web, memo] = await handle.db
      .insert(sources)
      .values([
        {
          runId: run.id,
          url: "https://web.example/a",
          normalizedUrl: "https://web.example/a",
          provider: "searxng",
        },
        { runId: run.id, url: "library://memo", normalizedUrl: "library://memo", provider: "library" },
      ])
      .returning();
    await handle.db.insert(reports).values({ runId: run.id, markdown: "# R\n\nOne [1]. Two [2]." });
    await handle.db.insert(citations).values([
      {
        runId: run.id,
        number: 1,
        sourceId: web.id,
        sentence: "One.",
        support: "supported",
        reason: "The page states one.",
        because: { code: "verdict_quoted" },
        passage: "one, as the page says",
      },
      {
        runId: run.id,
        number: 2,
        sourceId: memo.id,
        sentence: "Two.",
        support: "supported",
        reason: "model: The memo says the merger closes on 3 March.",
        because: {
          code: "verdict_model",
          values: { said: "The memo says the merger closes on 3 March.", handled: "kept" },
        },
        passage: "the merger closes on 3 March",
      },
    ]);
    const { token } = await shareRun(rt, run.id, "alice", {});
    const shared = await sharedReport(rt, token);
    const byNumber = new Map(shared?.citations.map((c) => [c.number, c]));
    expect(byNumber.get(1)).toMatchObject({
      reason: "The page states one.",
      because: { code: "verdict_quoted" },
      passage: "one, as the page says",
    });
    // The reason as data is the model's paraphrase too: hidden with the English one.
    expect(byNumber.get(2)).toMatchObject({
      support: "supported",
      reason: null,
      because: null,
      passage: null,
    });
    expect(JSON.stringify(shared)).not.toContain("3 March");
  });

  it("answers the share page's cards per cited source, without a private passage, and not after revoke", async () => {
    const run = await newRun();
    const other = await newRun();
    const source = (runId: string, url: string, provider: string) => ({
      runId,
      url,
      normalizedUrl: url,
      provider,
    });
    const [web, memo, uncited, elsewhere] = await handle.db
      .insert(sources)
      .values([
        source(run.id, "https://web.example/card", "searxng"),
        source(run.id, "library://card-memo", "library"),
        source(run.id, "https://web.example/read-only", "searxng"),
        source(other.id, "https://web.example/other", "searxng"),
      ])
      .returning();
    await handle.db.insert(citations).values([
      {
        runId: run.id,
        number: 1,
        sourceId: web.id,
        sentence: "One.",
        support: "supported",
        reason: "It says one.",
        because: { code: "verdict_overlap", values: { percent: 85 } },
        passage: "one, as the page says",
      },
      {
        runId: run.id,
        number: 2,
        sourceId: memo.id,
        sentence: "Two.",
        support: "partially_supported",
        reason: "model: The memo: 3 March.",
        because: { code: "verdict_model", values: { said: "The memo: 3 March.", handled: "kept" } },
        passage: "closes on 3 March",
      },
      {
        runId: other.id,
        number: 1,
        sourceId: elsewhere.id,
        sentence: "Else.",
        support: "supported",
        reason: null,
        passage: "else",
      },
    ]);
    const { share, token } = await shareRun(rt, run.id, "alice", {});

    const card = await sharedSourceView(rt, token, web.id);
    expect(card.citations).toEqual([
      {
        number: 1,
        sourceId: web.id,
        sentence: "One.",
        support: "supported",
        reason: "It says one.",
        because: { code: "verdict_overlap", values: { percent: 85 } },
        passage: "one, as the page says",
      },
    ]);
    const hidden = await sharedSourceView(rt, token, memo.id);
    expect(hidden.citations).toEqual([
      {
        number: 2,
        sourceId: memo.id,
        sentence: "Two.",
        support: "partially_supported",
        reason: null,
        because: null,
        passage: null,
      },
    ]);
    expect(JSON.stringify(hidden)).not.toContain("3 March");
    // Another run's source, an uncited one and a made-up token open nothing.
    for (const [t, id] of [
      [token, elsewhere.id],
      [token, uncited.id],
      ["x".repeat(43), web.id],
      ["not a token", web.id],
    ])
      await expect(sharedSourceView(rt, t, id)).rejects.toMatchObject({ code: "not_found" });

    await revokeOwnShare(rt, share.id, "alice");
    await expect(sharedSourceView(rt, token, web.id)).rejects.toMatchObject({ code: "not_found" });
  });

  it("shows the question thread only on a link that includes it, without a private passage", async () => {
    const run = await newRun();
    const [web, memo] = await handle.db
      .insert(sources)
      .values([
        {
          runId: run.id,
          url: "https://web.example/q",
          normalizedUrl: "https://web.example/q",
          provider: "searxng",
          title: "Web page",
        },
        {
          runId: run.id,
          url: "library://q-memo",
          normalizedUrl: "library://q-memo",
          provider: "library",
          title: "Board memo",
        },
      ])
      .returning();
    await handle.db.insert(reports).values({ runId: run.id, markdown: "# R\n\nText." });
    await handle.db.insert(runQuestions).values({
      runId: run.id,
      question: "And the budget?",
      status: "answered",
      answer: "The page says ten [1]. The memo says twelve [2].",
      citations: [
        {
          n: 1,
          sourceId: web.id,
          sentence: "The page says ten.",
          support: "supported",
          reason: "It says ten.",
          passage: "ten, as the page says",
        },
        {
          n: 2,
          sourceId: memo.id,
          sentence: "The memo says twelve.",
          support: "supported",
          reason: "model: Twelve on 3 March.",
          because: { code: "verdict_model", values: { said: "Twelve on 3 March.", handled: "kept" } },
          passage: "twelve, agreed on 3 March",
        },
      ],
    });

    const plain = await shareRun(rt, run.id, "alice", {});
    expect(plain.share.includeThread).toBe(false);
    expect((await sharedReport(rt, plain.token))?.thread).toBeUndefined();

    const withThread = await shareRun(rt, run.id, "alice", { includeThread: true });
    expect(withThread.share.includeThread).toBe(true);
    const shared = await sharedReport(rt, withThread.token);
    expect(shared?.thread).toHaveLength(1);
    const [q] = shared?.thread ?? [];
    expect(q).toMatchObject({ question: "And the budget?", status: "answered" });
    expect(q.citations).toEqual([
      {
        number: 1,
        sourceId: web.id,
        sentence: "The page says ten.",
        support: "supported",
        reason: "It says ten.",
        // An answer stored before reasons had codes: its English reason is what the page shows.
        because: null,
        passage: "ten, as the page says",
      },
      {
        number: 2,
        sourceId: memo.id,
        sentence: "The memo says twelve.",
        support: "supported",
        reason: null,
        because: null,
        passage: null,
      },
    ]);
    // The answers' sources come with the page (for the cards), a private one only as "private document".
    expect(shared?.sources).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ id: web.id, title: "Web page", url: "https://web.example/q" }),
        { id: memo.id, title: "private document", domain: null, url: "" },
      ]),
    );
    // (The private URLs stay on the server for the redaction: privateSourceUrls is not sent to the page.)
    expect(JSON.stringify([shared?.thread, shared?.sources])).not.toMatch(/3 March|Board memo|q-memo/);

    await revokeOwnShare(rt, withThread.share.id, "alice");
    expect(await sharedReport(rt, withThread.token)).toBeUndefined();
  });
});

describe.each(testDatabases())("the token-hash migration on $name", ({ open }) => {
  // The migrations as they were before the hash: the journal cut off at 0001.
  const database = useDatabaseBefore("0002", open);

  it("hashes the tokens stored before it, so existing links keep working", async () => {
    const handle = await database.open();
    // Raw SQL: the schema in code has columns later migrations add, which this database lacks yet.
    const inserted = await handle.db.execute(
      sql`insert into runs (owner_id, question, settings) values ('alice', 'Old link?', '{}') returning id`,
    );
    const run = { id: String(rows(inserted)[0].id) };
    const token = "pre-hash-token_ABCdef-0123456789abcdefghijk";
    await handle.db.execute(sql`insert into shares (run_id, token) values (${run.id}, ${token})`);

    await database.migrateRest();
    const [stored] = await handle.db.select().from(shares);
    expect(stored.tokenHash).toBe(shareTokenHash(token));
    expect((await runForShareToken(handle.db, token, new Date()))?.id).toBe(run.id);
    expect(stored.label).toBeNull();
    expect(stored.expiresAt).toBeNull();
  });
});

describe("the share request", () => {
  const post = (body?: string) => new Request("http://app.test/api/runs/x/shares", { method: "POST", body });

  it("is optional, and so is every field", async () => {
    expect(await readShareRequest(post())).toEqual({});
    expect(await readShareRequest(post(""))).toEqual({});
    expect(await readShareRequest(post("{}"))).toEqual({});
    expect(await readShareRequest(post('{"label":"  Bob  ","expiresInDays":30}'))).toEqual({
      label: "Bob",
      expiresInDays: 30,
    });
    expect(await readShareRequest(post('{"label":"   "}'))).toEqual({});
    expect(await readShareRequest(post('{"includeThread":true}'))).toEqual({ includeThread: true });
  });

  it("refuses what it does not know or allow", async () => {
    for (const body of [
      JSON.stringify({ label: "x".repeat(101) }),
      '{"expiresInDays":0}',
      '{"expiresInDays":366}',
      '{"expiresInDays":1.5}',
      '{"expiresInDays":"7"}',
      '{"token":"chosen"}',
      '{"includeThread":"yes"}',
    ]) {
      await expect(readShareRequest(post(body)), body).rejects.toMatchObject({ code: "validation_failed" });
    }
    await expect(readShareRequest(post("{not json"))).rejects.toMatchObject({ code: "invalid_json" });
  });
});
