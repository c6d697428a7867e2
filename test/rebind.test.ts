// DNS rebinding against an empty instance: a hostile page whose own hostname resolves to this
// server's address (localhost, a LAN IP) would sign up the first account — the admin — through a
// visitor's browser. Its requests carry its own hostname as Host, so sign-up, sign-in and cookie-
// authenticated writes are refused unless the Host is an IP address, localhost, APP_URL's host or
// listed in ALLOWED_HOSTS; the refusal names the variable. The same sign-up through 127.0.0.1 works.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { countUsers } from "../db/queries/accounts.ts";
import { getRuntime } from "../lib/jobs/runtime.ts";
import { authCall, call, type Person, useFreshAppDatabase } from "./support/app-session.ts";

const rebound = { host: "rebind.example", origin: "http://rebind.example" };
const account = { email: "first@example.org", password: "correct horse battery", name: "First" };
const users = async () => countUsers((await getRuntime()).handle.db);

describe("sign-up, sign-in and cookie writes through a foreign Host", () => {
  let stopApp: () => Promise<void>;
  beforeAll(async () => {
    stopApp = await useFreshAppDatabase("pglite");
  }, 60_000);
  afterAll(async () => {
    delete process.env.ALLOWED_HOSTS;
    await stopApp?.();
  });

  it("refuses the first sign-up through rebind.example and creates nothing; through 127.0.0.1 it works", async () => {
    expect(await users()).toBe(0);
    const refused = await authCall("/sign-up/email", account, undefined, rebound);
    expect(refused.status).toBe(403);
    const body = (await refused.json()) as { error: { code: string; message: string } };
    expect(body.error.code).toBe("forbidden");
    expect(body.error.message).toContain("ALLOWED_HOSTS=rebind.example");
    expect(refused.headers.getSetCookie()).toEqual([]);
    expect(await users()).toBe(0);

    const local = { host: "127.0.0.1:3000", origin: "http://127.0.0.1:3000" };
    const created = await authCall("/sign-up/email", account, undefined, local);
    expect(created.status).toBe(200);
    expect(await users()).toBe(1);
  });

  it("refuses sign-in and a cookie-authenticated write through it, and lets a listed host in", async () => {
    const signIn = { email: account.email, password: account.password };
    const refused = await authCall("/sign-in/email", signIn, undefined, rebound);
    expect(refused.status).toBe(403);
    expect(refused.headers.getSetCookie()).toEqual([]);

    const me: Person = await (async () => {
      const res = await authCall("/sign-in/email", signIn);
      expect(res.status).toBe(200);
      const cookie = res.headers
        .getSetCookie()
        .map((c) => c.split(";")[0])
        .join("; ");
      return { cookie, userId: "", email: account.email };
    })();
    const { POST } = await import("../app/api/knowledge/route.ts");
    const body = { category: "finding", content: "Written through a rebound host?" };
    const write = await call(POST, "POST", "/api/knowledge", { who: me, body, headers: rebound });
    expect(write.status).toBe(403);
    expect(((await write.json()) as { error: { message: string } }).error.message).toMatch(/ALLOWED_HOSTS/);

    process.env.ALLOWED_HOSTS = "rebind.example";
    const allowed = await call(POST, "POST", "/api/knowledge", { who: me, body, headers: rebound });
    expect(allowed.status).toBe(201);
    expect((await authCall("/sign-in/email", signIn, undefined, rebound)).status).toBe(200);
  });
});
