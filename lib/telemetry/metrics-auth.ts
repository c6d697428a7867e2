/**
 * The scraper's credential: `Authorization: Bearer <METRICS_TOKEN>`, compared in constant time
 * (both sides hashed first, so neither the length nor a prefix leaks through timing).
 */
import { secretsEqual } from "../secrets.ts";

type Env = Readonly<Record<string, string | undefined>>;

export function metricsTokenFromEnv(env: Env = process.env): string | undefined {
  const token = env.METRICS_TOKEN?.trim();
  return token ? token : undefined;
}

/** The bearer credential of a request, or null. */
export function bearerOf(authorization: string | null | undefined): string | null {
  const m = /^Bearer\s+(\S+)\s*$/i.exec(authorization ?? "");
  return m ? m[1] : null;
}

/** Whether the request carries METRICS_TOKEN (false when no token is configured). */
export function carriesMetricsToken(
  authorization: string | null | undefined,
  env: Env = process.env,
): boolean {
  const expected = metricsTokenFromEnv(env);
  const given = bearerOf(authorization);
  if (!expected || given === null) return false;
  return secretsEqual(given, expected);
}
