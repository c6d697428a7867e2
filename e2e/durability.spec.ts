/**
 * Runs survive what kills their workers: a SIGKILLed server (embedded PGlite) or standalone worker
 * (PostgreSQL) leaves its run to the next worker, which resumes from the checkpoints — no directive
 * researched to completion twice, no source stored twice, no gap in the events — and with the same
 * URL strings admitted for reading (the killed researcher had read a hostile page; before and after
 * the restart its variants of the page's link carrying the brief are refused, the link as written
 * is read). Also: replay after a reconnect, the cross-process live stream (LISTEN/NOTIFY), and
 * resuming an older checkpoint shape.
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { type APIRequestContext, expect, test } from "@playwright/test";
import { sql } from "drizzle-orm";
import { PgBoss } from "pg-boss";
import { openFreshPostgres } from "../test/databases.ts";
import type { ScriptedReply } from "../test/support/llm-server.ts";
import { roleMatch } from "../test/support/script-roles.ts";
import { HOSTILE_PAGE_COLLECTOR_LINK } from "../test/support/web-fixture-hostile.ts";
import { type AppServer, startApp, startWorker } from "./app-server.ts";
import {
  collectorHits,
  collectorLinkUrl,
  exfiltrationVariants,
  hostilePageUrl,
  leaks,
  storedEvents,
  waitForStoredEvent,
} from "./support/exfiltration.ts";
import {
  isHanging,
  llmRequests,
  readEventStream,
  scriptLlm,
  waitForIdle,
  webUrl,
} from "./support/helpers.ts";
import { call, researchScript, SCRIPT_BRIEF, TOPIC_A, TOPIC_B } from "./support/research-script.ts";
import { type AppSession, sessionHeaders, sharedApp, signUp } from "./support/session.ts";

const appEnv = () => ({
  ...JSON.parse(process.env.E2E_APP_ENV ?? "{}"),
  // Notice a dead worker's job quickly (pg-boss's minimum heartbeat is 10 s).
  JOB_HEARTBEAT_SECONDS: "10",
  JOB_MONITOR_SECONDS: "1",
});

async function post(app: AppSession, p: string, body: unknown) {
  const r = await fetch(app.url + p, {
    method: "POST",
    headers: sessionHeaders(app, { "content-type": "application/json" }),
    body: JSON.stringify(body),
  });
  return { status: r.status, json: await r.json() };
}

async function getJson(app: AppSession, p: string) {
  const r = await fetch(app.url + p, { headers: sessionHeaders(app) });
  if (r.status !== 200) throw new Error(`GET ${p}: ${r.status} ${await r.text()}`);
  return r.json();
}

async function waitFor<T>(
  what: string,
  fn: () => Promise<T | undefined | false>,
  timeoutMs = 60_000,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const v = await fn().catch(() => undefined);
    if (v) return v;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 250));
  }
}

const think = call("think", { reflection: "Noted. On to the next step." });
/** Directive B's researcher reads each URL, reflecting after each. */
const reads = (urls: string[]) => urls.flatMap((url) => [call("extract_content", { url }), think]);

/**
 * The run's phase-1 setup: A finishes, B reads `beforeHang` and hangs mid-research. Returns when
 * that state is reached.
 */
async function startRunAndStallB(app: AppSession, question: string, beforeHang: ScriptedReply[] = []) {
  await scriptLlm(researchScript({ webUrl: webUrl(), researcherB: [...beforeHang, { kind: "hang" }] }));
  const created = await post(app, "/api/runs", { question });
  expect(created.status).toBe(201);
  const id = created.json.id as string;
  await waitFor("directive A completed and B stalled", async () => {
    const run = await getJson(app, `/api/runs/${id}`);
    const a = run.directives.find((d: { topic: string }) => d.topic === TOPIC_A);
    const stalled = await isHanging("researcher-b");
    return a?.status === "done" && stalled;
  });
  return id;
}

/** Directive B's page in the default script. */
const RUNNING_COSTS_PAGE = "/pages/running-costs-heat-pump-vs-gas-boiler.html";

async function assertResumedCleanly(app: AppSession, id: string, sseSeen?: [number, string][]) {
  const run = await getJson(app, `/api/runs/${id}`);
  expect(run.status).toBe("completed");
  const urls = run.sources.map((s: { url: string }) => s.url);
  expect(new Set(urls).size).toBe(urls.length);
  expect(run.directives.map((d: { status: string }) => d.status)).toEqual(["done", "done"]);
  const events = await readEventStream(id, undefined, app);
  expect(events.map(([seq]) => seq)).toEqual(events.map((_, i) => i + 1));
  expect(events.at(-1)?.[1]).toBe("run.completed");
  expect(events.map(([, t]) => t)).toContain("run.resumed");
  // Each directive was researched to completion exactly once.
  expect(events.filter(([, t]) => t === "directive.completed")).toHaveLength(2);
  expect(events.filter(([, t]) => t === "compression.completed")).toHaveLength(2);
  // After the restart, only B was researched: A's researcher was left unscripted and never asked.
  expect((await llmRequests()).filter((r) => r.rule === undefined)).toEqual([]);
  if (sseSeen) expect(sseSeen).toEqual(events);
  const report = await (
    await fetch(`${app.url}/api/runs/${id}/report.md`, { headers: sessionHeaders(app) })
  ).text();
  expect(report).toMatch(/^## Sources$/m);
}

test.describe("embedded (PGlite)", () => {
  test("a server killed with SIGKILL mid-research: the restarted server resumes and completes the run", async ({
    request,
  }) => {
    await waitForIdle(request);
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "dr-e2e-kill-"));
    let app: AppServer | undefined;
    try {
      app = await startApp({ ...appEnv(), DATA_DIR: dataDir });
      const session = await signUp(app.url);
      const question = `Heat pump or gas boiler for a cold-climate home? Owners' notes: ${hostilePageUrl()}`;
      const [utm, fbclid, fragment, upperCase] = exfiltrationVariants(SCRIPT_BRIEF);
      const hitsBefore = (await collectorHits()).length;
      // B reads the hostile page, is refused its link with the brief as utm_content, and hangs.
      const id = await startRunAndStallB(session, question, [think, ...reads([hostilePageUrl(), utm])]);
      expect(leaks((await collectorHits()).slice(hitsBefore), [question, SCRIPT_BRIEF])).toEqual([]);
      await waitForStoredEvent(session, id, "researcher.fetch_refused");
      await app.stop("SIGKILL");
      await scriptLlm(
        researchScript({
          webUrl: webUrl(),
          omitA: true,
          researcherB: [
            think,
            ...reads([fbclid, fragment, upperCase, collectorLinkUrl(), webUrl() + RUNNING_COSTS_PAGE]),
            call("research_complete", { summary: "Running costs found." }),
          ],
        }),
      );
      app = await startApp({ ...appEnv(), DATA_DIR: dataDir });
      // The session outlives the killed server: its secret and the account are in DATA_DIR.
      const restarted = { ...session, url: app.url };
      const run = await waitFor("the resumed run to complete", async () => {
        const run = await getJson(restarted, `/api/runs/${id}`);
        return run.status === "completed" || run.status === "failed" ? run : undefined;
      });
      await assertResumedCleanly(restarted, id);
      // The resumed researcher was refused the same variants and read the page's link as written,
      // from the strings stored before the kill; nothing of the run reached the collector.
      const events = await storedEvents(restarted, id);
      expect(events.filter((e) => e.type === "researcher.fetch_refused").map((e) => e.url)).toEqual([
        utm,
        fbclid,
        fragment,
        upperCase,
      ]);
      const hits = (await collectorHits()).slice(hitsBefore);
      expect(hits.map((h) => h.url)).toEqual([HOSTILE_PAGE_COLLECTOR_LINK]);
      expect(leaks(hits, [run.question, run.brief])).toEqual([]);

      // A question being answered when the server is killed is answered after the restart, once.
      await scriptLlm([{ name: "answer-hangs", match: roleMatch.question, replies: [{ kind: "hang" }] }]);
      const asked = await post(restarted, `/api/runs/${id}/questions`, {
        question: "How much is the gas standing charge per year?",
      });
      expect(asked.status).toBe(202);
      await waitFor("the answer to be mid-flight", () => isHanging("answer-hangs"));
      await app.stop("SIGKILL");
      const costs = run.sources.find((s: { url: string }) => s.url.includes("running-costs"));
      const n = run.citations.find((c: { sourceId: string }) => c.sourceId === costs.id)?.number ?? 1;
      const answer = `The gas standing charge is typically 100 to 300 euros per year [${n}].`;
      await scriptLlm([
        {
          name: "answer",
          match: roleMatch.question,
          replies: [{ kind: "text", text: answer }],
          repeat: true,
        },
      ]);
      app = await startApp({ ...appEnv(), DATA_DIR: dataDir });
      const again = { ...session, url: app.url };
      const thread = await waitFor("the question answered after the restart", async () => {
        const t = await getJson(again, `/api/runs/${id}/questions`);
        return ["queued", "answering"].includes(t[0]?.status) ? undefined : t;
      });
      expect(thread.map((q: { status: string }) => q.status)).toEqual(["answered"]);
      // Answered once: one model call after the restart, and one answer stored.
      expect((await llmRequests()).filter((r) => r.rule === "answer")).toHaveLength(1);
      expect(thread[0].answer).toContain("100 to 300 euros");
    } finally {
      await app?.stop("SIGKILL");
      fs.rmSync(dataDir, { recursive: true, force: true });
    }
  });

  test("two live clients, one reconnecting with Last-Event-ID mid-run, see the identical sequence", async ({
    request,
  }) => {
    await waitForIdle(request);
    await scriptLlm(researchScript({ webUrl: webUrl(), stepDelayMs: 150 }));
    const { id } = await (
      await request.post("/api/runs", { data: { question: "Heat pump or gas boiler?" } })
    ).json();
    const whole = readEventStream(id);
    // The second client drops after a few events and reconnects with the last id it saw.
    const shared = sharedApp();
    const first = await fetch(`${shared.url}/api/runs/${id}/events`, { headers: sessionHeaders(shared) });
    const reader = first.body!.getReader();
    let text = "";
    while ([...text.matchAll(/^id: \d+$/gm)].length < 6) {
      const { value, done } = await reader.read();
      if (done) break;
      text += new TextDecoder().decode(value);
    }
    await reader.cancel();
    const seen = [...text.matchAll(/^id: (\d+)\nevent: (.+)$/gm)].map(
      (m) => [Number(m[1]), m[2]] as [number, string],
    );
    const lastId = seen.at(-1)![0];
    const rest = await readEventStream(id, lastId);
    const joined = [...seen, ...rest];
    const all = await whole;
    expect(all.at(-1)?.[1]).toBe("run.completed");
    expect(joined).toEqual(all);
    expect(all.map(([s]) => s)).toEqual(all.map((_, i) => i + 1));
  });
});

const pgUrl = process.env.TEST_DATABASE_URL;
if (!pgUrl) {
  console.warn("\n*** PostgreSQL durability e2e tests NOT RUN: TEST_DATABASE_URL is unset. ***\n");
} else {
  test.describe("PostgreSQL with standalone workers", () => {
    async function pgSetup() {
      const db = await openFreshPostgres(pgUrl!);
      if (db.kind !== "postgres") throw new Error("expected postgres");
      // With DATABASE_URL every process must share one AUTH_SECRET.
      const env = {
        ...appEnv(),
        DATABASE_URL: db.url,
        IN_PROCESS_WORKER: "false",
        AUTH_SECRET: "e2e-auth-secret-shared-by-web-and-workers-0123456789",
      };
      return { db, env };
    }

    test("the web tier only enqueues; a killed worker's run is finished by another, streamed live across processes", async ({
      request,
    }: {
      request: APIRequestContext;
    }) => {
      await waitForIdle(request);
      const { db, env } = await pgSetup();
      const procs: AppServer[] = [];
      try {
        const webApp = await startApp(env);
        procs.push(webApp);
        const web = await signUp(webApp.url);
        const worker1 = await startWorker(env);
        procs.push(worker1);
        await scriptLlm(researchScript({ webUrl: webUrl(), researcherB: [{ kind: "hang" }] }));
        const created = await post(web, "/api/runs", {
          question: "Heat pump or gas boiler for a cold-climate home?",
        });
        const id = created.json.id as string;
        // A browser-facing client follows the run on the web process the whole time.
        const live = readLive(web, id);
        await waitFor("directive A done and B stalled", async () => {
          const run = await getJson(web, `/api/runs/${id}`);
          const a = run.directives.find((d: { topic: string }) => d.topic === TOPIC_A);
          const stalled = await isHanging("researcher-b");
          return a?.status === "done" && stalled;
        });
        expect(webApp.output()).not.toContain("worker ready");
        await worker1.stop("SIGKILL");
        await scriptLlm(researchScript({ webUrl: webUrl(), omitA: true }));
        const worker2 = await startWorker(env);
        procs.push(worker2);
        const seen = await live;
        await assertResumedCleanly(web, id, seen);
        expect(seen.map(([, t]) => t)).toContain("directive.started");
        const topics = (await getJson(web, `/api/runs/${id}`)).directives.map(
          (d: { topic: string }) => d.topic,
        );
        expect(topics).toEqual([TOPIC_A, TOPIC_B]);
      } finally {
        for (const p of procs.reverse()) await p.stop("SIGKILL");
        await db.close();
      }
    });

    test("a run checkpointed in the older state shape resumes through the compatibility path", async ({
      request,
    }) => {
      await waitForIdle(request);
      const { db, env } = await pgSetup();
      const procs: AppServer[] = [];
      let boss: PgBoss | undefined;
      try {
        const webApp = await startApp(env);
        procs.push(webApp);
        await scriptLlm(researchScript({ webUrl: webUrl() }));
        const fixture = JSON.parse(
          fs.readFileSync(path.join(import.meta.dirname, "fixtures", "legacy-run-v1.json"), "utf8"),
        );
        const [{ id }] = (await db.db.execute(sql`
          insert into runs (owner_id, question, settings, status, phase, brief, state_version, checkpoint, last_event_seq)
          values ('local', ${fixture.question}, ${JSON.stringify(fixture.settings)}::jsonb, ${fixture.status},
                  ${fixture.phase}, ${fixture.brief}, 1, ${JSON.stringify(fixture.checkpoint)}::jsonb, ${fixture.events.length})
          returning id`)) as unknown as { id: string }[];
        for (const [i, e] of fixture.events.entries()) {
          await db.db.execute(
            sql`insert into run_events (run_id, seq, type, payload) values (${id}, ${i + 1}, ${e.type}, ${JSON.stringify(e.payload)}::jsonb)`,
          );
        }
        // The first account, signed up after the upgrade, takes over what the local owner had.
        const web = await signUp(webApp.url);
        // The old worker's job is gone; the queue gets a new one for the run, as an upgrade script would.
        boss = new PgBoss({
          connectionString: (db as { url: string }).url,
          schema: "pgboss",
          supervise: false,
          schedule: false,
        });
        await boss.start();
        expect(await boss.send("research-run", { runId: id })).toBeTruthy();
        const worker = await startWorker(env);
        procs.push(worker);
        await waitFor("the legacy run to complete", async () => {
          const run = await getJson(web, `/api/runs/${id}`);
          return run.status === "completed" ? run : undefined;
        });
        const events = await readEventStream(id, undefined, web);
        const types = events.map(([, t]) => t);
        expect(types.slice(0, fixture.events.length)).toEqual(
          fixture.events.map((e: { type: string }) => e.type),
        );
        expect(types).toContain("run.legacy_resume");
        // The brief was already written under the old shape: it is kept, not written again.
        expect(types.filter((t) => t === "brief.created")).toHaveLength(1);
        expect((await getJson(web, `/api/runs/${id}`)).brief).toBe(fixture.brief);
        expect(events.map(([s]) => s)).toEqual(events.map((_, i) => i + 1));
      } finally {
        await boss?.stop({ graceful: false }).catch(() => {});
        for (const p of procs.reverse()) await p.stop("SIGKILL");
        await db.close();
      }
    });
  });
}

/** Follows a run's stream from the start to its terminal event. */
async function readLive(app: AppSession, id: string): Promise<[number, string][]> {
  const r = await fetch(`${app.url}/api/runs/${id}/events`, { headers: sessionHeaders(app) });
  const text = await r.text();
  return [...text.matchAll(/^id: (\d+)\nevent: (.+)$/gm)].map((m) => [Number(m[1]), m[2]]);
}
