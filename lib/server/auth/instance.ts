/** The process's one better-auth instance, built on the runtime's database the first time it is asked for. */
import { type DatabaseHandle, defaultDataDir } from "../../../db/client.ts";
import { envNumber } from "../../env.ts";
import { serverRuntime } from "../runtime.ts";
import { type Auth, createAuth } from "./auth.ts";
import { configuredOrigin, resolveAuthSecret, signupMode, trustProxy } from "./settings.ts";

const key = Symbol.for("deep-research.auth");
type G = typeof globalThis & { [key]?: { handle: DatabaseHandle; auth: Auth } };

export async function getAuth(): Promise<Auth> {
  const { handle } = await serverRuntime();
  const g = globalThis as G;
  // Rebuilt when the runtime reopened its database (tests switch databases; a server never does).
  if (g[key]?.handle !== handle) g[key] = { handle, auth: buildAuth(handle) };
  return g[key].auth;
}

function buildAuth(handle: DatabaseHandle): Auth {
  const env = process.env;
  const origin = configuredOrigin(env);
  return createAuth(handle.db, {
    secret: resolveAuthSecret(env, defaultDataDir(env)),
    signup: signupMode(env),
    origin,
    secureCookies: trustProxy(env) || origin?.startsWith("https:") === true,
    signInPerMinute: envNumber(env, "AUTH_RATE_LIMIT_PER_MINUTE", 10, { min: 1, integer: true }),
  });
}
