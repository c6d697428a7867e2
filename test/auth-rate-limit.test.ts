// better-auth's own limiter on sign-in, stored in the database: it answers 429 with Retry-After,
// keys by client address, and two auth instances on one database (two processes) share the count.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { authCall, useFreshAppDatabase } from "./support/app-session.ts";

describe("sign-in rate limit", () => {
  let stop: () => Promise<void>;
  beforeAll(async () => {
    stop = await useFreshAppDatabase("pglite");
    process.env.AUTH_RATE_LIMIT_PER_MINUTE = "3";
  }, 60_000);
  afterAll(async () => {
    process.env.AUTH_RATE_LIMIT_PER_MINUTE = "1000";
    await stop();
  });

  const attempt = (ip: string) =>
    authCall("/sign-in/email", { email: "nobody@example.org", password: "wrong-password" }, undefined, {
      "x-forwarded-for": ip,
    });

  it("answers 429 with Retry-After after the limit, per client address, across instances", async () => {
    for (let i = 0; i < 3; i++) expect((await attempt("10.1.1.1")).status).toBe(401);
    const limited = await attempt("10.1.1.1");
    expect(limited.status).toBe(429);
    expect(Number(limited.headers.get("retry-after"))).toBeGreaterThan(0);
    // Another address has its own budget.
    expect((await attempt("10.1.1.2")).status).toBe(401);

    // A second instance on the same database (another process) sees the same count.
    const { getRuntime } = await import("../lib/jobs/runtime.ts");
    const { createAuth } = await import("../lib/server/auth/auth.ts");
    const other = createAuth((await getRuntime()).handle.db, {
      secret: process.env.AUTH_SECRET as string,
      signup: "invite",
      origin: null,
      secureCookies: false,
      signInPerMinute: 3,
    });
    const res = await other.handler(
      new Request("http://localhost:3000/api/auth/sign-in/email", {
        method: "POST",
        headers: { "content-type": "application/json", "x-forwarded-for": "10.1.1.1" },
        body: JSON.stringify({ email: "nobody@example.org", password: "wrong-password" }),
      }),
    );
    expect(res.status).toBe(429);
  });
});
