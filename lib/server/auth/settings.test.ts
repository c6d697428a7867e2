// Account settings from the environment: the session secret is generated once into DATA_DIR when
// embedded, must be set with PostgreSQL, and SIGNUP / APP_URL mistakes are clear configuration errors.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { configuredOrigin, resolveAuthSecret, signupMode } from "./settings.ts";

const dirs: string[] = [];
const tempDir = () => {
  const d = fs.mkdtempSync(path.join(os.tmpdir(), "dr-secret-"));
  dirs.push(d);
  return d;
};
afterEach(() => {
  for (const d of dirs.splice(0)) fs.rmSync(d, { recursive: true, force: true });
});

describe("resolveAuthSecret", () => {
  it("generates a secret into DATA_DIR once (owner-only file) and reuses it on the next start", () => {
    const dir = tempDir();
    const first = resolveAuthSecret({}, dir);
    expect(first.length).toBeGreaterThanOrEqual(32);
    const file = path.join(dir, "auth-secret");
    expect(fs.statSync(file).mode & 0o777).toBe(0o600);
    expect(resolveAuthSecret({}, dir)).toBe(first);
  });

  it("uses AUTH_SECRET when set and writes nothing", () => {
    const dir = tempDir();
    const secret = "s".repeat(40);
    expect(resolveAuthSecret({ AUTH_SECRET: secret }, dir)).toBe(secret);
    expect(fs.existsSync(path.join(dir, "auth-secret"))).toBe(false);
  });

  it("refuses to start with DATABASE_URL but no AUTH_SECRET, and refuses a short secret", () => {
    const dir = tempDir();
    expect(() => resolveAuthSecret({ DATABASE_URL: "postgres://x/y" }, dir)).toThrow(
      /AUTH_SECRET is required/,
    );
    expect(fs.existsSync(path.join(dir, "auth-secret"))).toBe(false);
    expect(() => resolveAuthSecret({ AUTH_SECRET: "short" }, dir)).toThrow(/at least 32/);
  });
});

describe("signupMode and APP_URL", () => {
  it("defaults to invite, accepts the three modes and names the mistake otherwise", () => {
    expect(signupMode({})).toBe("invite");
    expect(signupMode({ SIGNUP: " Open " })).toBe("open");
    expect(signupMode({ SIGNUP: "closed" })).toBe("closed");
    expect(() => signupMode({ SIGNUP: "everyone" })).toThrow(/SIGNUP must be one of invite, open, closed/);
  });

  it("reads APP_URL's origin and refuses what is not a URL", () => {
    expect(configuredOrigin({})).toBeNull();
    expect(configuredOrigin({ APP_URL: "https://research.example.org/some/path" })).toBe(
      "https://research.example.org",
    );
    expect(() => configuredOrigin({ APP_URL: "research.example.org" })).toThrow(/APP_URL is not a URL/);
  });
});
