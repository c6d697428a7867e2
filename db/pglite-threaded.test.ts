/**
 * Embedded PGlite on its own thread keeps the semantics of PGlite on the caller's thread: one
 * connection (a transaction holds it; other statements wait and then see its rows), rollbacks,
 * PostgreSQL's error fields, notifications, snapshots and files that outlive the thread. The
 * database layer's own suite (test/db.integration.test.ts) also runs on it.
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { PGlite } from "@electric-sql/pglite";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { until } from "../test/support/until.ts";
import { restoreEmbedded, snapshotEmbedded } from "./backup.ts";
import { ThreadedPglite, wireOptions } from "./pglite-threaded.ts";

describe("PGlite on its own thread", () => {
  let db: ThreadedPglite;
  beforeAll(async () => {
    db = new ThreadedPglite(null);
    await db.waitReady;
    await db.exec(
      "create table notes (id int primary key, body text not null, at timestamptz default now())",
    );
  });
  afterAll(async () => {
    await db?.close();
  });

  it("answers with rows in either row mode, leaving dates as text when asked as drizzle asks", async () => {
    await db.query("insert into notes (id, body) values ($1, $2)", [1, "one"]);
    const objects = await db.query<{ id: number; body: string; at: Date }>(
      "select * from notes where id = 1",
    );
    expect(objects.rows[0]).toMatchObject({ id: 1, body: "one" });
    expect(objects.rows[0].at).toBeInstanceOf(Date);
    const arrays = await db.query<unknown[]>("select id, at from notes where id = 1", [], {
      rowMode: "array",
      parsers: { 1184: (value: string) => value },
    });
    expect(arrays.rows[0][0]).toBe(1);
    expect(typeof arrays.rows[0][1]).toBe("string");
    expect(arrays.fields.map((f) => f.name)).toEqual(["id", "at"]);
  });

  it("holds its one connection for a transaction: a statement sent meanwhile waits and sees the commit", async () => {
    let release = () => {};
    const holding = new Promise<void>((r) => {
      release = r;
    });
    let inside = false;
    const tx = db.transaction(async (t) => {
      await t.query("insert into notes (id, body) values (2, 'two')");
      inside = true;
      await holding;
      await t.query("update notes set body = 'two, edited' where id = 2");
      return "done";
    });
    expect(await until(() => inside)).toBe(true);
    let outsideAnswered = false;
    const outside = db.query<{ body: string }>("select body from notes where id = 2").then((r) => {
      outsideAnswered = true;
      return r;
    });
    await new Promise((r) => setTimeout(r, 100));
    expect(outsideAnswered).toBe(false);
    release();
    await expect(tx).resolves.toBe("done");
    expect((await outside).rows).toEqual([{ body: "two, edited" }]);
  });

  it("rolls back when the work throws or calls rollback(), and the caller gets the work's error", async () => {
    await expect(
      db.transaction(async (t) => {
        await t.query("insert into notes (id, body) values (3, 'three')");
        throw new Error("the work failed");
      }),
    ).rejects.toThrow("the work failed");
    await db.transaction(async (t) => {
      await t.query("insert into notes (id, body) values (4, 'four')");
      await t.rollback();
      expect(t.closed).toBe(true);
    });
    const left = await db.query("select id from notes where id in (3, 4)");
    expect(left.rows).toEqual([]);
  });

  it("keeps a PostgreSQL error's message and fields, and the connection usable after it", async () => {
    const error = await db.query("insert into notes (id, body) values (1, 'again')").catch((e) => e);
    expect(error).toBeInstanceOf(Error);
    expect(error.message).toMatch(/duplicate key/);
    expect(error).toMatchObject({ code: "23505", constraint: "notes_pkey", table: "notes" });
    const failedTx = await db
      .transaction(async (t) => {
        await t.query("insert into notes (id, body) values (1, 'again')");
      })
      .catch((e) => e);
    expect(failedTx.code).toBe("23505");
    expect((await db.query("select count(*)::int as n from notes")).rows).toEqual([{ n: 2 }]);
  });

  it("delivers notifications to a listener until it stops listening", async () => {
    const heard: string[] = [];
    const stop = await db.listen("news", (payload) => heard.push(payload));
    await db.query("select pg_notify('news', 'first')");
    expect(await until(() => heard.length === 1)).toBe(true);
    await stop();
    await db.query("select pg_notify('news', 'second')");
    await db.query("select 1");
    expect(heard).toEqual(["first"]);
  });

  it("refuses query options it cannot carry across rather than answering differently", () => {
    expect(() => wireOptions({ parsers: { 1184: (v: string) => new Date(v) } })).toThrow(/cannot cross/);
    expect(() => wireOptions({ serializers: { 25: (v: unknown) => String(v) } })).toThrow(/identity parsers/);
    expect(wireOptions({ rowMode: "array", parsers: { 1184: (v: string) => v } })).toEqual({
      rowMode: "array",
      paramTypes: undefined,
      textTypes: [1184],
    });
  });

  it("takes a snapshot that restores to the same rows", async () => {
    const archive = await snapshotEmbedded(db);
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "dr-thread-restore-"));
    try {
      await restoreEmbedded(archive, dir);
      const restored = new PGlite(path.join(dir, "pgdata"));
      const { rows } = await restored.query("select id from notes order by id");
      await restored.close();
      expect(rows).toEqual([{ id: 1 }, { id: 2 }]);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe("PGlite on its own thread, on disk", () => {
  it("writes files that outlive the thread, and fails every call after it ended with a clear error", async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "dr-thread-"));
    try {
      const crashes: Error[] = [];
      const db = new ThreadedPglite(dir, { onUnexpectedEnd: (e) => crashes.push(e) });
      await db.waitReady;
      await db.exec("create table kept (id int); insert into kept values (7)");
      await db.close();
      await expect(db.query("select 1")).rejects.toThrow(/embedded database thread ended/);
      expect(crashes).toEqual([]); // closing is not a crash

      const again = new PGlite(dir);
      const { rows } = await again.query("select id from kept");
      await again.close();
      expect(rows).toEqual([{ id: 7 }]);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe("PGlite's thread crashing", () => {
  it("fails the call in flight and every later one with the thread's error, and tells the app once", async () => {
    const crashes: Error[] = [];
    // A heap too small for the answer: the thread runs out of memory while it reads it.
    const db = new ThreadedPglite(null, {
      resourceLimits: { maxOldGenerationSizeMb: 48, maxYoungGenerationSizeMb: 8 },
      onUnexpectedEnd: (e) => crashes.push(e),
    });
    await db.waitReady;
    await expect(db.query("select repeat('x', 1000000) from generate_series(1, 200)")).rejects.toThrow(
      /embedded database thread failed/,
    );
    await expect(db.exec("select 2")).rejects.toThrow(/thread failed/);
    expect(crashes).toHaveLength(1);
    expect(crashes[0].message).toMatch(/^The embedded database thread failed: .*memory/i);
    await db.close();
    expect(crashes).toHaveLength(1);
  });
});
