/**
 * Route handlers called in-process as the built app would call them, with real accounts: points the
 * process's runtime at a fresh database (embedded PGlite in a temporary DATA_DIR, or a new
 * PostgreSQL database), signs people up through better-auth's own route, and carries their cookie.
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import postgres from "postgres";
import { seedDataDir } from "./db-template.ts";

export type AppDatabaseKind = "pglite" | "postgres";

export const appDatabaseKinds = (): AppDatabaseKind[] =>
  process.env.TEST_DATABASE_URL ? ["pglite", "postgres"] : ["pglite"];

const baseEnv = {
  AUTH_SECRET: "test-secret-for-in-process-route-tests-0123456789",
  IN_PROCESS_WORKER: "false",
  MODEL: "openai-compatible:scripted-model",
  OPENAI_COMPATIBLE_BASE_URL: "http://127.0.0.1:9/v1",
  SIGNUP: "invite",
  AUTH_RATE_LIMIT_PER_MINUTE: "1000",
};

/** Opens the runtime on a fresh database of `kind`; returns a function that stops and removes it. */
export async function useFreshAppDatabase(kind: AppDatabaseKind): Promise<() => Promise<void>> {
  const { stopRuntime, getRuntime } = await import("../../lib/jobs/runtime.ts");
  await stopRuntime();
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "dr-app-"));
  Object.assign(process.env, baseEnv, { DATA_DIR: dataDir });
  let dbName: string | null = null;
  if (kind === "postgres") {
    const base = process.env.TEST_DATABASE_URL as string;
    dbName = `dr_app_${Date.now()}_${Math.random().toString(16).slice(2, 8)}`;
    const admin = postgres(base, { max: 1, onnotice: () => {} });
    await admin.unsafe(`create database ${dbName}`);
    await admin.end();
    const url = new URL(base);
    url.pathname = `/${dbName}`;
    process.env.DATABASE_URL = url.toString();
  } else {
    delete process.env.DATABASE_URL;
    // The app migrates it on start as always; the copy only spares it initdb.
    seedDataDir(dataDir);
  }
  await getRuntime({ startWorker: false });
  return async () => {
    await stopRuntime();
    fs.rmSync(dataDir, { recursive: true, force: true });
    delete process.env.DATABASE_URL;
    if (dbName) {
      const dropper = postgres(process.env.TEST_DATABASE_URL as string, { max: 1, onnotice: () => {} });
      await dropper.unsafe(`drop database if exists ${dbName} with (force)`);
      await dropper.end();
    }
  };
}

export const origin = "http://localhost:3000";

// biome-ignore lint/suspicious/noExplicitAny: route handlers each type their own context
type Handler = (req: Request, ctx: any) => Promise<Response>;

/** Calls better-auth's route (POST /api/auth/...). */
export async function authCall(
  pathAfterAuth: string,
  body: unknown,
  cookie?: string,
  headers: Record<string, string> = {},
): Promise<Response> {
  const { POST } = await import("../../app/api/auth/[...all]/route.ts");
  return POST(
    new Request(`${origin}/api/auth${pathAfterAuth}`, {
      method: "POST",
      headers: { "content-type": "application/json", origin, ...(cookie ? { cookie } : {}), ...headers },
      body: JSON.stringify(body),
    }),
  );
}

export interface Person {
  cookie: string;
  userId: string;
  email: string;
}

/** The session cookie better-auth set, as a Cookie header value. */
export function sessionCookie(res: Response): string {
  const cookies = res.headers.getSetCookie().map((c) => c.split(";")[0]);
  const session = cookies.filter((c) => c.includes("session_token"));
  if (session.length === 0) throw new Error(`no session cookie (status ${res.status})`);
  return session.join("; ");
}

export async function signUp(email: string, extra: Record<string, unknown> = {}): Promise<Person> {
  const res = await authCall("/sign-up/email", {
    email,
    password: "correct horse battery",
    name: email,
    ...extra,
  });
  if (res.status !== 200) throw new Error(`sign-up of ${email} failed: ${res.status} ${await res.text()}`);
  const body = (await res.json()) as { user: { id: string } };
  return { cookie: sessionCookie(res), userId: body.user.id, email };
}

/** A second person: `admin` invites `email` (sign-ups need an invitation after the first) and they sign up. */
export async function signUpInvited(admin: Person, email: string): Promise<Person> {
  const { POST } = await import("../../app/api/invitations/route.ts");
  const created = await call(POST as Handler, "POST", "/api/invitations", { who: admin, body: { email } });
  const { invitation } = (await created.json()) as { invitation: { url: string } };
  return signUp(email, { invite: new URL(invitation.url).searchParams.get("invite") });
}

/** An in-process request to one of our route handlers, as `who` (or anonymous). */
export async function call(
  handler: Handler,
  method: string,
  url: string,
  opts: {
    who?: Person;
    body?: unknown;
    params?: Record<string, string>;
    headers?: Record<string, string>;
  } = {},
): Promise<Response> {
  const headers: Record<string, string> = {
    ...(opts.who ? { cookie: opts.who.cookie } : {}),
    ...opts.headers,
  };
  let body: BodyInit | undefined;
  if (opts.body !== undefined) {
    body = typeof opts.body === "string" ? opts.body : JSON.stringify(opts.body);
    headers["content-type"] ??= "application/json";
  }
  const req = new Request(`${origin}${url}`, { method, headers, body });
  return handler(req, { params: Promise.resolve(opts.params ?? {}) });
}

/** Wraps a route handler so every request it gets carries `cookie` (a signed-in person's session). */
export const withSession =
  (h: Handler, cookie: string): Handler =>
  (req, c) => {
    const headers = new Headers(req.headers);
    headers.set("cookie", cookie);
    return h(new Request(req, { headers, duplex: "half" } as RequestInit), c);
  };
