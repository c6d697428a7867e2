/**
 * The app's secrets: AUTH_SECRET (from the environment, or generated once into DATA_DIR when
 * embedded), and what is derived from it — AES-256-GCM encryption of stored provider keys and
 * webhook signing secrets, and one-way hashes of bearer tokens. Base module: the web process and
 * the worker both decrypt settings, so it sits below both.
 */
import {
  createCipheriv,
  createDecipheriv,
  createHash,
  hkdfSync,
  randomBytes,
  timingSafeEqual,
} from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import type { Env } from "./env.ts";
import { AppError } from "./errors.ts";

const secretFile = "auth-secret";

/**
 * AUTH_SECRET, or — embedded only — a secret generated once into DATA_DIR (mode 0600) so sessions
 * survive restarts. With DATABASE_URL every process must share one secret, so it must be set.
 */
export function resolveAuthSecret(env: Env, dataDir: string): string {
  const set = env.AUTH_SECRET?.trim();
  if (set) {
    if (set.length < 32)
      throw new AppError("not_configured", "AUTH_SECRET must be at least 32 characters long.");
    return set;
  }
  if (env.DATABASE_URL?.trim()) {
    throw new AppError(
      "not_configured",
      "AUTH_SECRET is required when DATABASE_URL is set (every web and worker process must share it). " +
        "Generate one with: openssl rand -base64 48",
    );
  }
  const file = path.join(/*turbopackIgnore: true*/ dataDir, secretFile);
  if (fs.existsSync(file)) return fs.readFileSync(file, "utf8").trim();
  fs.mkdirSync(/*turbopackIgnore: true*/ dataDir, { recursive: true });
  const secret = randomBytes(48).toString("base64url");
  // "wx": if another process wrote it first, keep theirs.
  try {
    fs.writeFileSync(file, secret, { mode: 0o600, flag: "wx" });
  } catch {
    return fs.readFileSync(file, "utf8").trim();
  }
  return secret;
}

/** What a derived key is for; a key derived for one purpose never decrypts another's data. */
export type SecretPurpose = "settings" | "webhooks";

const version = "v1";

function keyFor(authSecret: string, purpose: SecretPurpose): Buffer {
  return Buffer.from(hkdfSync("sha256", authSecret, "deep-research", `secrets:${purpose}`, 32));
}

/** AES-256-GCM under a key derived (HKDF-SHA256) from AUTH_SECRET: "v1.<iv>.<tag>.<ciphertext>", base64url. */
export function encryptSecret(plain: string, authSecret: string, purpose: SecretPurpose): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv("aes-256-gcm", keyFor(authSecret, purpose), iv);
  const body = Buffer.concat([cipher.update(plain, "utf8"), cipher.final()]);
  return [version, iv, cipher.getAuthTag(), body]
    .map((p) => (typeof p === "string" ? p : p.toString("base64url")))
    .join(".");
}

/** The plain text, or a not_configured error when the ciphertext was made under another AUTH_SECRET. */
export function decryptSecret(sealed: string, authSecret: string, purpose: SecretPurpose): string {
  const [v, iv, tag, body] = sealed.split(".");
  if (v !== version || !iv || !tag || body === undefined)
    throw new AppError("internal", "A stored secret is not in the expected format.");
  try {
    const decipher = createDecipheriv(
      "aes-256-gcm",
      keyFor(authSecret, purpose),
      Buffer.from(iv, "base64url"),
    );
    decipher.setAuthTag(Buffer.from(tag, "base64url"));
    return Buffer.concat([decipher.update(Buffer.from(body, "base64url")), decipher.final()]).toString(
      "utf8",
    );
  } catch (cause) {
    throw new AppError(
      "not_configured",
      "A stored secret cannot be decrypted: AUTH_SECRET has changed since it was saved. Save it again.",
      { cause },
    );
  }
}

/** SHA-256 (hex) of a bearer secret: what is stored and looked up, never the secret. */
export function hashToken(token: string): string {
  return createHash("sha256").update(token, "utf8").digest("hex");
}

/** A fresh unguessable secret with a readable prefix (e.g. "dr_" for personal API tokens). */
export function newToken(prefix: string): string {
  return `${prefix}${randomBytes(32).toString("base64url")}`;
}

/** Whether two secrets are equal, in constant time: both are hashed first, so neither length nor prefix leaks. */
export function secretsEqual(given: string, expected: string): boolean {
  const digest = (s: string) => createHash("sha256").update(s, "utf8").digest();
  return timingSafeEqual(digest(given), digest(expected));
}
