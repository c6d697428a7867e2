// The cap on live updates one person holds open (EVENT_STREAMS_MAX_PER_USER): event streams through
// the real route handler and MCP follows through the real MCP route count together; past the cap a
// stream is refused 429 naming the variable and a follow answers a tool error saying so; a stream
// that ends gives its slot back; other people are not affected.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createRun } from "../db/queries/runs.ts";
import { getRuntime } from "../lib/jobs/runtime.ts";
import { streamsOpen } from "../lib/server/stream-slots.ts";
import {
  call,
  origin,
  type Person,
  signUp,
  signUpInvited,
  useFreshAppDatabase,
} from "./support/app-session.ts";
import { until } from "./support/until.ts";

type Handler = Parameters<typeof call>[0];

describe("live updates per person", { timeout: 60_000 }, () => {
  let stopApp: () => Promise<void>;
  let alice: Person;
  let bob: Person;
  let events: Handler;
  let mcp: Handler;
  let runId: string;
  let bobRunId: string;
  const open: AbortController[] = [];

  beforeAll(async () => {
    stopApp = await useFreshAppDatabase("pglite");
    process.env.EVENT_STREAMS_MAX_PER_USER = "2";
    process.env.MCP_FOLLOW_SECONDS = "1";
    alice = await signUp("alice@example.org");
    bob = await signUpInvited(alice, "bob@example.org");
    events = (await import("../app/api/runs/[id]/events/route.ts")).GET as Handler;
    mcp = (await import("../app/api/mcp/route.ts")).POST as Handler;
    const { db } = (await getRuntime()).handle;
    // Queued runs: their streams stay open, following.
    runId = (await createRun(db, { ownerId: alice.userId, question: "Open for a while?", settings: {} })).id;
    bobRunId = (await createRun(db, { ownerId: bob.userId, question: "Bob's run?", settings: {} })).id;
  }, 120_000);
  afterAll(async () => {
    for (const c of open) c.abort();
    delete process.env.EVENT_STREAMS_MAX_PER_USER;
    delete process.env.MCP_FOLLOW_SECONDS;
    await stopApp();
  });

  async function stream(who: Person, id = runId): Promise<{ res: Response; stop: () => void }> {
    const ctl = new AbortController();
    open.push(ctl);
    const req = new Request(`${origin}/api/runs/${id}/events`, {
      headers: { cookie: who.cookie },
      signal: ctl.signal,
    });
    const res = await events(req, { params: Promise.resolve({ id }) });
    return { res, stop: () => ctl.abort() };
  }

  async function follow(token: string): Promise<string> {
    const res = await call(mcp, "POST", "/api/mcp", {
      headers: { authorization: `Bearer ${token}`, accept: "application/json, text/event-stream" },
      body: {
        jsonrpc: "2.0",
        id: 1,
        method: "tools/call",
        params: { name: "follow_research", arguments: { id: runId } },
      },
    });
    const body = await res.text();
    const message = body.startsWith("{") ? body : (/^data: (.*)$/m.exec(body)?.[1] ?? "");
    return (JSON.parse(message) as { result: { content: { text: string }[] } }).result.content[0].text;
  }

  it("refuses a stream past the cap with 429 naming the variable; a stream that ends gives its slot back", async () => {
    const first = await stream(alice);
    const second = await stream(alice);
    expect([first.res.status, second.res.status]).toEqual([200, 200]);
    expect(streamsOpen(alice.userId)).toBe(2);

    const third = await stream(alice);
    expect(third.res.status).toBe(429);
    expect(third.res.headers.get("retry-after")).toBe("5");
    expect((await third.res.json()).error).toMatchObject({
      code: "rate_limited",
      message: expect.stringContaining(
        "the most this server allows one person (EVENT_STREAMS_MAX_PER_USER=2)",
      ),
      details: { open: 2, max: 2, variable: "EVENT_STREAMS_MAX_PER_USER" },
    });
    // Someone else's streams are their own.
    expect((await stream(bob, bobRunId)).res.status).toBe(200);

    first.stop();
    expect(await until(() => streamsOpen(alice.userId) === 1)).toBe(true);
    const again = await stream(alice);
    expect(again.res.status).toBe(200);
    expect(streamsOpen(alice.userId)).toBe(2);
  });

  it("counts MCP follows with the streams: past the cap a follow says so; a follow holds a slot while it waits", async () => {
    const { POST } = await import("../app/api/tokens/route.ts");
    const minted = await call(POST as Handler, "POST", "/api/tokens", {
      who: alice,
      body: { name: "follow" },
    });
    const { token } = await minted.json();
    expect(streamsOpen(alice.userId)).toBe(2);
    expect(await follow(token)).toMatch(
      /^Limit reached: You have 2 live updates open .*EVENT_STREAMS_MAX_PER_USER=2/,
    );

    for (const c of open) c.abort();
    expect(await until(() => streamsOpen(alice.userId) === 0)).toBe(true);
    const following = follow(token);
    expect(await until(() => streamsOpen(alice.userId) === 1)).toBe(true);
    expect(JSON.parse(await following)).toMatchObject({
      id: runId,
      next: expect.stringContaining("call follow_research again"),
    });
    expect(streamsOpen(alice.userId)).toBe(0);
  });
});
