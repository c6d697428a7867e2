// "Export my data" one at a time per person, across processes, and rate-limited, through the real
// route handler on both databases: while one export's download is open a second is refused 429; a
// lease another process holds refuses it too, until it is released or expires; a download given up
// half way gives the lease back; past RATE_LIMIT_EXPORTS_PER_HOUR the export is refused 429.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { releaseLease, renewLease, takeLease } from "../db/queries/leases.ts";
import { getRuntime } from "../lib/jobs/runtime.ts";
import {
  appDatabaseKinds,
  call,
  type Person,
  signUp,
  signUpInvited,
  useFreshAppDatabase,
} from "./support/app-session.ts";

type Handler = Parameters<typeof call>[0];

describe.each(appDatabaseKinds())("account exports (%s)", { timeout: 120_000 }, (kind) => {
  let stopApp: () => Promise<void>;
  let alice: Person;
  let bob: Person;
  let exportData: Handler;
  const db = async () => (await getRuntime()).handle.db;

  beforeAll(async () => {
    stopApp = await useFreshAppDatabase(kind);
    process.env.RATE_LIMIT_EXPORTS_PER_HOUR = "4";
    alice = await signUp("alice@example.org");
    bob = await signUpInvited(alice, "bob@example.org");
    exportData = (await import("../app/api/account/export/route.ts")).GET as Handler;
  }, 120_000);
  afterAll(async () => {
    delete process.env.RATE_LIMIT_EXPORTS_PER_HOUR;
    await stopApp();
  });

  const exportOf = (who: Person) => call(exportData, "GET", "/api/account/export", { who });

  /** An export of `who` once no other export of theirs holds the lease (polled). */
  async function exportWhenFree(who: Person): Promise<Response> {
    for (let i = 0; i < 100; i++) {
      const res = await exportOf(who);
      if (res.status !== 429) return res;
      const body = await res.json();
      if (body.error.details?.concurrent !== 1) return Response.json(body, res);
      await new Promise((r) => setTimeout(r, 20));
    }
    throw new Error("the export's lease was not given back");
  }

  it("leases: one holder at a time, renewed by its holder only, taken over once expired", async () => {
    const d = await db();
    expect(await takeLease(d, "test:a", "one", 60_000)).toBe(true);
    expect(await takeLease(d, "test:a", "two", 60_000)).toBe(false);
    expect(await renewLease(d, "test:a", "two", 60_000)).toBe(false);
    expect(await renewLease(d, "test:a", "one", 1)).toBe(true);
    await new Promise((r) => setTimeout(r, 20));
    expect(await takeLease(d, "test:a", "two", 60_000)).toBe(true);
    await releaseLease(d, "test:a", "one"); // not theirs any more: nothing happens
    expect(await takeLease(d, "test:a", "three", 60_000)).toBe(false);
    await releaseLease(d, "test:a", "two");
    expect(await takeLease(d, "test:a", "three", 60_000)).toBe(true);
  });

  it("refuses a second export while the first is being downloaded; a download given up frees it", async () => {
    const first = await exportOf(alice);
    expect(first.status).toBe(200);
    const second = await exportOf(alice);
    expect(second.status).toBe(429);
    expect(second.headers.get("retry-after")).toBe("30");
    expect((await second.json()).error).toMatchObject({
      code: "rate_limited",
      message:
        "An export of your account is already being prepared, and only one runs at a time. Wait for its download to finish, then try again.",
    });
    // Someone else's export is theirs.
    const bobs = await exportOf(bob);
    expect(bobs.status).toBe(200);
    await bobs.arrayBuffer();

    const reader = (first.body as ReadableStream<Uint8Array>).getReader();
    await reader.read();
    await reader.cancel();
    const third = await exportWhenFree(alice);
    expect(third.status).toBe(200);
    expect((await third.arrayBuffer()).byteLength).toBeGreaterThan(0);
  });

  it("refuses an export while another process holds the person's export lease, until it is released", async () => {
    const d = await db();
    expect(await takeLease(d, `export:${bob.userId}`, "another process", 60_000)).toBe(true);
    const refused = await exportOf(bob);
    expect(refused.status).toBe(429);
    await releaseLease(d, `export:${bob.userId}`, "another process");
    const res = await exportOf(bob);
    expect(res.status).toBe(200);
    await res.arrayBuffer();
  });

  it("refuses exports past RATE_LIMIT_EXPORTS_PER_HOUR, naming the limit", async () => {
    // Alice has made two so far (the one given up counts); two more are allowed this hour.
    for (let i = 0; i < 2; i++) {
      const res = await exportWhenFree(alice);
      expect(res.status).toBe(200);
      await res.arrayBuffer();
    }
    const limited = await exportWhenFree(alice);
    expect(limited.status).toBe(429);
    expect(Number(limited.headers.get("retry-after"))).toBeGreaterThan(60);
    expect((await limited.json()).error).toMatchObject({
      code: "rate_limited",
      message: expect.stringMatching(
        /^Too many requests: at most 4 account exports an hour\. Try again in \d+ s\.$/,
      ),
      details: { limit: "exports", perHour: 4 },
    });
  });
});
