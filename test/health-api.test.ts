// GET /api/health answers anyone, so it says only whether the app and its database are up: no
// error text (which can name hosts, users and ports), no configuration. Why the database is
// unreachable goes to the server log. Called directly with the route handler.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { captureLogs } from "./support/capture-logs.ts";
import { seedDataDir } from "./support/db-template.ts";

const saved = { DATABASE_URL: process.env.DATABASE_URL, DATA_DIR: process.env.DATA_DIR };
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "dr-health-"));
// The app opens this directory as its embedded database: a copy of the migrated template, not initdb.
seedDataDir(dataDir);
let GET: () => Promise<Response>;

beforeAll(async () => {
  GET = (await import("../app/api/health/route.ts")).GET;
});

afterAll(async () => {
  const { closeDatabase } = await import("../db/client.ts");
  await closeDatabase();
  for (const [k, v] of Object.entries(saved)) {
    if (v === undefined) delete process.env[k];
    else process.env[k] = v;
  }
  fs.rmSync(dataDir, { recursive: true, force: true });
});

describe("GET /api/health", () => {
  it("with the database down: 503, 'unreachable', and the error only in the server log", async () => {
    // A port nothing listens on, and a password that must never reach the response.
    process.env.DATABASE_URL = "postgres://health_user:s3cret-pass@127.0.0.1:1/health_db";
    const logs = captureLogs();
    const res = await GET();
    const text = await res.text();
    logs.restore();
    const line = logs.lines.find((l) => String(l.msg).includes("database"));
    expect(line).toMatchObject({ level: 50, err: expect.objectContaining({ message: expect.any(String) }) });
    // The log has the error, never the password of the connection string.
    expect(JSON.stringify(logs.lines)).not.toContain("s3cret-pass");
    expect(res.status).toBe(503);
    expect(JSON.parse(text)).toEqual({ status: "degraded", database: "unreachable" });
    for (const secret of ["ECONNREFUSED", "127.0.0.1", "health_user", "s3cret", "health_db", "MODEL"]) {
      expect(text).not.toContain(secret);
    }
  });

  it("with the database up: 200 and nothing but the two words", async () => {
    delete process.env.DATABASE_URL;
    process.env.DATA_DIR = dataDir;
    const res = await GET();
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ status: "ok", database: "ok" });
  });
});
