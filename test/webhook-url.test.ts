// Which URL a run's webhook goes to, through the real POST /api/runs: the run's own
// settings.webhookUrl (http/https only), else the URL of the API token that started it; a
// session-started run without one owes no webhook. The effective URL is kept in the run's settings.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { appDatabaseKinds, call, type Person, signUp, useFreshAppDatabase } from "./support/app-session.ts";

type Handler = Parameters<typeof call>[0];

describe.each(appDatabaseKinds())("webhook URL of a new run (%s)", (kind) => {
  let stopApp: () => Promise<void>;
  let alice: Person;
  let post: Handler;
  let read: Handler;
  let mint: Handler;

  beforeAll(async () => {
    stopApp = await useFreshAppDatabase(kind);
    alice = await signUp("alice@example.org");
    post = (await import("../app/api/runs/route.ts")).POST as Handler;
    read = (await import("../app/api/runs/[id]/route.ts")).GET as Handler;
    mint = (await import("../app/api/tokens/route.ts")).POST as Handler;
  }, 60_000);
  afterAll(async () => stopApp());

  async function start(headers: Record<string, string>, settings: Record<string, unknown> = {}) {
    const who = headers.authorization ? undefined : alice;
    const res = await call(post, "POST", "/api/runs", {
      who,
      headers,
      body: { question: "How do heat pumps work in cold climates?", settings },
    });
    return res;
  }

  async function storedUrl(res: Response, headers: Record<string, string>): Promise<unknown> {
    expect(res.status).toBe(201);
    const { id } = (await res.json()) as { id: string };
    const who = headers.authorization ? undefined : alice;
    const view = await call(read, "GET", `/api/runs/${id}`, { who, headers, params: { id } });
    return ((await view.json()) as { settings: Record<string, unknown> }).settings.webhookUrl;
  }

  it("takes the token's URL, unless the run gives its own; a session run has none", async () => {
    const created = await call(mint, "POST", "/api/tokens", {
      who: alice,
      body: { name: "ci", webhookUrl: "https://hooks.example.org/token" },
    });
    const { token } = (await created.json()) as { token: string };
    const bearer = { authorization: `Bearer ${token}` };

    expect(await storedUrl(await start(bearer), bearer)).toBe("https://hooks.example.org/token");
    const own = await start(bearer, { webhookUrl: "https://hooks.example.org/run" });
    expect(await storedUrl(own, bearer)).toBe("https://hooks.example.org/run");
    expect(await storedUrl(await start({}), {})).toBeUndefined();
    const sessionOwn = await start({}, { webhookUrl: "http://receiver.example.org/x" });
    expect(await storedUrl(sessionOwn, {})).toBe("http://receiver.example.org/x");
  });

  it("refuses a webhook URL that is not http or https, creating nothing", async () => {
    const list = (await import("../app/api/runs/route.ts")).GET as Handler;
    const count = async () =>
      ((await (await call(list, "GET", "/api/runs", { who: alice })).json()) as { runs: unknown[] }).runs
        .length;
    const before = await count();
    const res = await start({}, { webhookUrl: "file:///etc/passwd" });
    expect(res.status).toBe(422);
    expect(await count()).toBe(before);
    const body = (await res.json()) as { error: { code: string; message: string } };
    expect(body.error.code).toBe("validation_failed");
    expect(body.error.message).toContain("webhookUrl");
  });
});
