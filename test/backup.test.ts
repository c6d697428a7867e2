// Backup and restore round trips. Embedded: a snapshot taken by the process that has the database
// open (the admin route, which `npm run backup` calls with BACKUP_SECRET while the app runs), or by
// the CLI when it is stopped; `npm run restore` refuses while a process has the directory open and
// keeps the old database aside. The route takes an admin's session from our own pages or the backup
// secret, never an API token, and writes each backup to the audit log every admin sees. PostgreSQL
// (with TEST_DATABASE_URL): pg_dump → pg_restore into another database.
import { execFile } from "node:child_process";
import fs from "node:fs";
import http from "node:http";
import os from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { embeddedDirOwner } from "../db/backup.ts";
import { migrateDatabase, openDatabase } from "../db/client.ts";
import { createRun } from "../db/queries/runs.ts";
import { runs } from "../db/schema.ts";
import { getRuntime } from "../lib/jobs/runtime.ts";
import { createToken } from "../lib/server/tokens/create.ts";
import { createFreshPostgresDatabase } from "./databases.ts";
import {
  authCall,
  call,
  type Person,
  signUp,
  signUpInvited,
  useFreshAppDatabase,
} from "./support/app-session.ts";
import { seedDataDir } from "./support/db-template.ts";

const exec = promisify(execFile);
const root = path.resolve(import.meta.dirname, "..");
const tmp = (name: string) => fs.mkdtempSync(path.join(os.tmpdir(), `dr-backup-${name}-`));

/** Runs one of the npm scripts' files as `npm run backup|restore` would, on this Node. */
async function script(name: "backup" | "restore", args: string[], env: Record<string, string | undefined>) {
  const childEnv: NodeJS.ProcessEnv = { ...process.env, DATABASE_URL: undefined, ...env };
  for (const k of Object.keys(childEnv)) if (childEnv[k] === undefined) delete childEnv[k];
  try {
    const r = await exec(process.execPath, [path.join(root, "scripts", `${name}.ts`), ...args], {
      cwd: root,
      env: childEnv,
    });
    return { code: 0, out: r.stdout + r.stderr };
  } catch (e) {
    const err = e as { code: number; stdout: string; stderr: string };
    return { code: err.code, out: err.stdout + err.stderr };
  }
}

async function questionsIn(dataDir: string): Promise<string[]> {
  const handle = await openDatabase({ dataDir });
  try {
    return (await handle.db.select({ q: runs.question }).from(runs)).map((r) => r.q);
  } finally {
    await handle.close();
  }
}

describe("embedded backup while the app runs (admin route + CLI)", () => {
  let stopApp: () => Promise<void>;
  let admin: Person;
  let server: http.Server;
  let appUrl: string;

  beforeAll(async () => {
    stopApp = await useFreshAppDatabase("pglite");
    admin = await signUp("admin@example.org");
    const db = (await getRuntime()).handle.db;
    await createRun(db, { ownerId: admin.userId, question: "Saved before the backup?", settings: {} });
    // The app's route behind a plain HTTP server, as `npm start` serves it.
    const { GET } = await import("../app/api/admin/backup/route.ts");
    server = http.createServer(async (req, res) => {
      const answer = await GET(
        new Request(`http://127.0.0.1${req.url}`, { headers: req.headers as HeadersInit }),
      );
      res.writeHead(answer.status, Object.fromEntries(answer.headers));
      res.end(Buffer.from(await answer.arrayBuffer()));
    });
    await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
    appUrl = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
  }, 60_000);
  afterAll(async () => {
    server?.close();
    await stopApp?.();
  });

  const BACKUP_SECRET = "backup-secret-of-this-test-0123456789abcdef";
  type AuditEntries = { entries: { action: string; actorEmail: string | null; bytes: number | null }[] };

  it("the route gives an admin's session a gzipped snapshot, written to the audit log every admin sees", async () => {
    const { GET } = await import("../app/api/admin/backup/route.ts");
    const audit = (await import("../app/api/admin/audit/route.ts")).GET;
    const res = await call(GET, "GET", "/api/admin/backup", { who: admin });
    expect(res.status).toBe(200);
    expect(res.headers.get("content-disposition")).toMatch(
      /attachment; filename="deep-research-.*\.tar\.gz"/,
    );
    const bytes = new Uint8Array(await res.arrayBuffer());
    expect([bytes[0], bytes[1]]).toEqual([0x1f, 0x8b]);

    // Another admin sees who took it, when and how large.
    const bob = await signUpInvited(admin, "bob@example.org");
    expect((await call(GET, "GET", "/api/admin/backup", { who: bob })).status).toBe(404);
    expect((await call(audit, "GET", "/api/admin/audit", { who: bob })).status).toBe(404);
    const promoted = await authCall("/admin/set-role", { userId: bob.userId, role: "admin" }, admin.cookie);
    expect(promoted.status).toBe(200);
    const seen = await call(audit, "GET", "/api/admin/audit", { who: bob });
    expect(seen.status).toBe(200);
    const { entries } = (await seen.json()) as AuditEntries;
    expect(entries).toEqual([
      expect.objectContaining({ action: "backup", actorEmail: "admin@example.org", bytes: bytes.byteLength }),
    ]);
    expect((await call(GET, "GET", "/api/admin/backup")).status).toBe(401);
  });

  it("refuses an admin's API token, a cross-site request and a foreign Host, and logs none of them", async () => {
    const { GET } = await import("../app/api/admin/backup/route.ts");
    const audit = (await import("../app/api/admin/audit/route.ts")).GET;
    const count = async () =>
      ((await (await call(audit, "GET", "/api/admin/audit", { who: admin })).json()) as AuditEntries).entries
        .length;
    const before = await count();
    const adminOwner = { userId: admin.userId, role: "admin" as const };
    for (const scope of ["admin", "research", "read"] as const) {
      const { secret } = await createToken(await getRuntime(), adminOwner, { name: `b-${scope}`, scope });
      const res = await call(GET, "GET", "/api/admin/backup", {
        headers: { authorization: `Bearer ${secret}` },
      });
      expect(res.status, scope).toBe(403);
      expect(((await res.json()) as { error: { message: string } }).error.message).toMatch(
        /signed-in session/,
      );
    }
    const crossSite = await call(GET, "GET", "/api/admin/backup", {
      who: admin,
      headers: { "sec-fetch-site": "cross-site" },
    });
    expect(crossSite.status).toBe(403);
    const rebound = await call(GET, "GET", "/api/admin/backup", {
      who: admin,
      headers: { host: "rebind.example" },
    });
    expect(rebound.status).toBe(403);
    expect(await count()).toBe(before);
  });

  it("npm run backup asks the running app with BACKUP_SECRET, and the restore has the data", async () => {
    const dataDir = process.env.DATA_DIR as string;
    expect(embeddedDirOwner(dataDir)).toBe(process.pid);
    const out = path.join(tmp("out"), "snap.tar.gz");
    const refused = await script("backup", ["--out", out], { DATA_DIR: dataDir, APP_URL: appUrl });
    expect(refused.code).not.toBe(0);
    expect(refused.out).toMatch(/Set BACKUP_SECRET/);

    // An admin's API token left in BACKUP_TOKEN from before: refused, naming the new variable.
    const { secret: token } = await createToken(
      await getRuntime(),
      { userId: admin.userId, role: "admin" },
      { name: "old backup token" },
    );
    const stale = await script("backup", ["--out", out], {
      DATA_DIR: dataDir,
      APP_URL: appUrl,
      BACKUP_TOKEN: token,
    });
    expect(stale.code).not.toBe(0);
    expect(stale.out).toMatch(/BACKUP_TOKEN is no longer used.*BACKUP_SECRET/);
    expect(fs.existsSync(out)).toBe(false);

    process.env.BACKUP_SECRET = BACKUP_SECRET; // the app's side (this process serves the route)
    try {
      const wrong = await script("backup", ["--out", out], {
        DATA_DIR: dataDir,
        APP_URL: appUrl,
        BACKUP_SECRET: `${BACKUP_SECRET}-not`,
      });
      expect(wrong.code).not.toBe(0);
      expect(wrong.out).toMatch(/refused the backup \(401\)/);
      const made = await script("backup", ["--out", out], {
        DATA_DIR: dataDir,
        APP_URL: appUrl,
        BACKUP_SECRET,
      });
      expect(made.code, made.out).toBe(0);
    } finally {
      delete process.env.BACKUP_SECRET;
    }
    // AUTH_SECRET comes from the environment here: no generated secret to carry along.
    expect(fs.existsSync(`${out}.auth-secret`)).toBe(false);
    const audit = (await import("../app/api/admin/audit/route.ts")).GET;
    const { entries } = (await (
      await call(audit, "GET", "/api/admin/audit", { who: admin })
    ).json()) as AuditEntries;
    // The secret is not a person: the entry names no one, and says how large the backup was.
    expect(entries[0]).toMatchObject({ action: "backup", actorEmail: null, bytes: fs.statSync(out).size });

    const busy = await script("restore", [out, "--yes"], { DATA_DIR: dataDir });
    expect(busy.code).not.toBe(0);
    expect(busy.out).toMatch(/stop it first/);

    const target = tmp("restored");
    const unconfirmed = await script("restore", [out], { DATA_DIR: target });
    expect(unconfirmed.out).toMatch(/--yes/);
    expect(fs.existsSync(path.join(target, "pgdata"))).toBe(false);
    const restored = await script("restore", [out, "--yes"], { DATA_DIR: target });
    expect(restored.code, restored.out).toBe(0);
    expect(await questionsIn(target)).toEqual(["Saved before the backup?"]);
  }, 300_000);
});

describe("a BACKUP_TOKEN left from before", () => {
  it("stops the server at start with a message naming BACKUP_SECRET", async () => {
    const started = await exec(process.execPath, [path.join(root, "scripts", "serve.mjs")], {
      cwd: root,
      env: { ...process.env, BACKUP_TOKEN: "drt_left-from-before", PORT: "0", NODE_ENV: "production" },
      timeout: 60_000,
    }).then(
      () => ({ code: 0, out: "" }),
      (e: { code: number; stderr: string }) => ({ code: e.code, out: e.stderr }),
    );
    expect(started.code).toBe(1);
    expect(started.out).toMatch(/BACKUP_TOKEN is no longer used.*BACKUP_SECRET/);
  }, 60_000);
});

describe("embedded backup with the app stopped", () => {
  it("snapshots the directory itself; a restore over existing data keeps the old one aside", async () => {
    const dataDir = tmp("stopped");
    seedDataDir(dataDir);
    const handle = await openDatabase({ dataDir });
    await migrateDatabase(handle);
    await createRun(handle.db, { ownerId: "someone", question: "First question", settings: {} });
    await handle.close();
    expect(embeddedDirOwner(dataDir)).toBeNull();
    // An embedded install's generated secret travels with its backup (stored keys are encrypted with it).
    fs.writeFileSync(path.join(dataDir, "auth-secret"), "generated-secret-of-this-install-0123456789");
    const out = path.join(tmp("out"), "stopped.tar.gz");
    const made = await script("backup", ["--out", out], { DATA_DIR: dataDir });
    expect(made.code, made.out).toBe(0);

    const later = await openDatabase({ dataDir });
    await createRun(later.db, { ownerId: "someone", question: "Added after the backup", settings: {} });
    await later.close();
    const restored = await script("restore", [out, "--yes"], { DATA_DIR: dataDir });
    expect(restored.code, restored.out).toBe(0);
    expect(restored.out).toMatch(/previous database is kept in .*pgdata\.before-restore-/);
    expect(await questionsIn(dataDir)).toEqual(["First question"]);
    expect(fs.readdirSync(dataDir).some((f) => f.startsWith("pgdata.before-restore-"))).toBe(true);
    expect(fs.readFileSync(`${out}.auth-secret`, "utf8")).toBe("generated-secret-of-this-install-0123456789");
    const elsewhere = tmp("elsewhere");
    expect((await script("restore", [out, "--yes"], { DATA_DIR: elsewhere })).code).toBe(0);
    expect(fs.readFileSync(path.join(elsewhere, "auth-secret"), "utf8")).toBe(
      "generated-secret-of-this-install-0123456789",
    );
  }, 300_000);
});

describe.runIf(process.env.TEST_DATABASE_URL)("PostgreSQL backup (pg_dump / pg_restore)", () => {
  it("restores a dump into another database with the same rows", async () => {
    const base = process.env.TEST_DATABASE_URL as string;
    const source = await createFreshPostgresDatabase(base);
    const target = await createFreshPostgresDatabase(base);
    try {
      const handle = await openDatabase({ url: source.url, poolSize: 2 });
      await migrateDatabase(handle);
      const run = await createRun(handle.db, {
        ownerId: "someone",
        question: "Kept in PostgreSQL?",
        settings: {},
      });
      await handle.close();
      const out = path.join(tmp("pg"), "db.dump");
      const made = await script("backup", ["--out", out], { DATABASE_URL: source.url });
      expect(made.code, made.out).toBe(0);
      const restored = await script("restore", [out, "--yes"], { DATABASE_URL: target.url });
      expect(restored.code, restored.out).toBe(0);
      const check = await openDatabase({ url: target.url, poolSize: 1 });
      const [row] = await check.db.select().from(runs).where(eq(runs.id, run.id));
      await check.close();
      expect(row.question).toBe("Kept in PostgreSQL?");
    } finally {
      await source.drop();
      await target.drop();
    }
  }, 300_000);
});
