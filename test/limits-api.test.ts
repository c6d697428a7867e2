// The limits as a client meets them, through the route handlers, on an embedded PGlite database in
// a temporary DATA_DIR, as one signed-in person. No worker runs (IN_PROCESS_WORKER=false): runs stay
// where the API puts them.
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { signUp, useFreshAppDatabase, withSession } from "./support/app-session.ts";

type Handler = (req: Request, ctx?: unknown) => Promise<Response>;
let createRun: Handler;
let getRun: Handler;
let steer: Handler;
let stopApp: () => Promise<void>;

beforeAll(async () => {
  stopApp = await useFreshAppDatabase("pglite");
  const { cookie } = await signUp("limits@example.org");
  createRun = withSession((await import("../app/api/runs/route.ts")).POST as Handler, cookie);
  getRun = withSession((await import("../app/api/runs/[id]/route.ts")).GET as Handler, cookie);
  steer = withSession((await import("../app/api/runs/[id]/directives/route.ts")).POST as Handler, cookie);
}, 60_000);

afterAll(async () => stopApp());

afterEach(() => {
  vi.unstubAllEnvs();
});

const post = (handler: Handler, url: string, body: unknown, ctx?: unknown) =>
  handler(
    new Request(url, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: typeof body === "string" ? body : JSON.stringify(body),
    }),
    ctx,
  );
const newRun = (settings: Record<string, unknown> = {}) =>
  post(createRun, "http://localhost/api/runs", {
    question: "Do heat pumps work in cold climates?",
    settings,
  });
const ctx = (id: string) => ({ params: Promise.resolve({ id }) });

async function errorOf(res: Response) {
  return ((await res.json()) as { error: { code: string; message: string } }).error;
}

describe("limits through the API", () => {
  it("rate-limits run creation: 429 rate_limited with Retry-After past the limit", async () => {
    vi.stubEnv("RATE_LIMIT_RUNS_PER_MINUTE", "3");
    vi.stubEnv("RUNS_MAX_ACTIVE_PER_USER", "2");
    const created = [await newRun(), await newRun(), await newRun()];
    expect(created.map((r) => r.status)).toEqual([201, 201, 201]);
    const bodies = (await Promise.all(created.map((r) => r.json()))) as {
      id: string;
      queuePosition: number | null;
    }[];
    // Two run at once; the third waits for a slot, first in its owner's queue.
    expect(bodies.map((b) => b.queuePosition)).toEqual([null, null, 1]);
    const view = (await (
      await getRun(new Request("http://localhost/api/runs/x"), ctx(bodies[2].id))
    ).json()) as {
      status: string;
      queuePosition: number | null;
    };
    expect(view).toMatchObject({ status: "queued", queuePosition: 1 });

    const refused = await newRun();
    expect(refused.status).toBe(429);
    expect(Number(refused.headers.get("retry-after"))).toBeGreaterThanOrEqual(1);
    expect(await errorOf(refused)).toMatchObject({
      code: "rate_limited",
      message: expect.stringMatching(/at most 3 runs/),
    });
  });

  it("refuses a run past the user's queue limit with 429", async () => {
    vi.stubEnv("RATE_LIMIT_RUNS_PER_MINUTE", "1000");
    vi.stubEnv("RUNS_MAX_ACTIVE_PER_USER", "2");
    vi.stubEnv("RUNS_MAX_QUEUED_PER_USER", "2");
    const fourth = await newRun();
    expect(fourth.status).toBe(201);
    expect(((await fourth.json()) as { queuePosition: number }).queuePosition).toBe(2);
    const fifth = await newRun();
    expect(fifth.status).toBe(429);
    expect((await errorOf(fifth)).message).toMatch(/2 running and 2 waiting/);
  });

  it("refuses settings above the server's ceilings with 422 naming the variable", async () => {
    vi.stubEnv("RATE_LIMIT_RUNS_PER_MINUTE", "1000");
    vi.stubEnv("RUN_MAX_ROUNDS", "2");
    vi.stubEnv("RUN_MAX_COST_USD", "1");
    const res = await newRun({ maxSupervisionRounds: 3, budget: { maxCostUsd: 2 } });
    expect(res.status).toBe(422);
    const error = await errorOf(res);
    expect(error.code).toBe("validation_failed");
    expect(error.message).toContain(
      "settings.maxSupervisionRounds: 3 is above this server's limit of 2 (RUN_MAX_ROUNDS)",
    );
    expect(error.message).toContain(
      "settings.budget.maxCostUsd: 2 is above this server's limit of 1 (RUN_MAX_COST_USD)",
    );
  });

  it("answers 413 payload_too_large for a JSON body over JSON_BODY_MAX_BYTES", async () => {
    vi.stubEnv("RATE_LIMIT_RUNS_PER_MINUTE", "1000");
    vi.stubEnv("JSON_BODY_MAX_BYTES", "4096");
    const res = await post(createRun, "http://localhost/api/runs", {
      question: `Heat pumps? ${"x".repeat(5000)}`,
    });
    expect(res.status).toBe(413);
    expect(await errorOf(res)).toMatchObject({
      code: "payload_too_large",
      message: expect.stringMatching(/4 KB/),
    });
  });

  it("rate-limits steering, counted apart from run creation", async () => {
    vi.stubEnv("RATE_LIMIT_ACTIONS_PER_MINUTE", "2");
    vi.stubEnv("RATE_LIMIT_RUNS_PER_MINUTE", "1000");
    vi.stubEnv("RUNS_MAX_QUEUED_PER_USER", "10");
    const { id } = (await (await newRun()).json()) as { id: string };
    const url = `http://localhost/api/runs/${id}/directives`;
    const topics = [
      "Defrost cycles of air-source heat pumps",
      "Noise of outdoor heat pump units",
      "Refrigerants",
    ];
    const answers = [];
    for (const topic of topics) answers.push(await post(steer, url, { topic }, ctx(id)));
    expect(answers.map((r) => r.status)).toEqual([201, 201, 429]);
    expect(answers[2].headers.get("retry-after")).toMatch(/^\d+$/);
    expect(await errorOf(answers[2])).toMatchObject({ code: "rate_limited" });
  });
});
