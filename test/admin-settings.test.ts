// The admin settings page's API through the real route handlers and accounts: keys stored only as
// AES-GCM ciphertext and never returned, change records without secrets, 404 for non-admins, 422
// that changes nothing, the next run's models and key taken from the stored settings (a local
// OpenAI-compatible server records what it receives), and the provider test's answers (a plain
// call, then a structured output and a tool call with the run's schemas).
import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { getRun } from "../db/queries/runs.ts";
import { appSettings, settingsChanges } from "../db/schema.ts";
import { createEngineDeps, processModelRegistry } from "../lib/jobs/engine-deps.ts";
import { createRunWriters } from "../lib/jobs/execute-run.ts";
import { getRuntime } from "../lib/jobs/runtime.ts";
import {
  effectiveConfig,
  parseStoredSettings,
  settingsOverlay,
} from "../lib/jobs/settings/effective-config.ts";
import { decryptSecret } from "../lib/secrets.ts";
import {
  appDatabaseKinds,
  call,
  type Person,
  signUp,
  signUpInvited,
  useFreshAppDatabase,
} from "./support/app-session.ts";

type Handler = Parameters<typeof call>[0];

const KEY = "sk-test-5f3c9a1b7d2e4c6a8b0d1f3e5a7c9b1d";
const OTHER_SECRET = "another-auth-secret-that-is-long-enough-0123456789";

/** An OpenAI-compatible chat endpoint that records each call's model and Authorization header. */
async function recordingModelServer() {
  const calls: { model: string; authorization: string | undefined }[] = [];
  const server = http.createServer((req, res) => {
    let body = "";
    req.on("data", (c) => (body += c));
    req.on("end", () => {
      const authorization = req.headers.authorization;
      if (req.url?.endsWith("/chat/completions")) {
        const request = JSON.parse(body);
        const model = request.model as string;
        calls.push({ model, authorization });
        if (authorization !== `Bearer ${KEY}`) {
          res.writeHead(401, { "content-type": "application/json" });
          res.end(
            JSON.stringify({
              error: { message: "Incorrect API key provided.", type: "invalid_request_error" },
            }),
          );
          return;
        }
        // A server whose model takes no json_schema response format (as older local servers).
        if (model === "no-schemas" && request.response_format?.type === "json_schema") {
          res.writeHead(400, { "content-type": "application/json" });
          res.end(JSON.stringify({ error: { message: "response_format json_schema is not supported" } }));
          return;
        }
        res.writeHead(200, { "content-type": "application/json" });
        res.end(
          JSON.stringify({
            id: "c1",
            object: "chat.completion",
            created: 1700000000,
            model,
            choices: [{ index: 0, message: { role: "assistant", content: "OK" }, finish_reason: "stop" }],
            usage: { prompt_tokens: 3, completion_tokens: 1, total_tokens: 4 },
          }),
        );
        return;
      }
      res.writeHead(404, { "content-type": "application/json" });
      res.end(JSON.stringify({ error: { message: "no such endpoint" } }));
    });
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
  return { url, calls, close: () => new Promise<void>((r) => server.close(() => r())) };
}

/** A port nothing listens on: one just given up by a server. */
async function closedPort(): Promise<number> {
  const server = http.createServer();
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((r) => server.close(() => r()));
  return port;
}

/** Every way the key could sit in a row or a response in readable form. */
function encodings(secret: string): string[] {
  const b = Buffer.from(secret, "utf8");
  return [secret, b.toString("base64"), b.toString("base64url"), b.toString("hex"), secret.slice(4, -4)];
}

describe.each(appDatabaseKinds())("admin settings (%s)", (kind) => {
  let stopApp: () => Promise<void>;
  let admin: Person;
  let bob: Person;
  let settings: { GET: Handler; PUT: Handler };
  let test: Handler;
  let runs: Handler;
  let llm: Awaited<ReturnType<typeof recordingModelServer>>;

  beforeAll(async () => {
    stopApp = await useFreshAppDatabase(kind);
    llm = await recordingModelServer();
    admin = await signUp("admin@example.org");
    bob = await signUpInvited(admin, "bob@example.org");
    settings = (await import("../app/api/admin/settings/route.ts")) as unknown as typeof settings;
    test = (await import("../app/api/admin/settings/test/route.ts")).POST as Handler;
    runs = (await import("../app/api/runs/route.ts")).POST as Handler;
  }, 240_000);
  afterAll(async () => {
    await llm.close();
    await stopApp();
  });

  const db = async () => (await getRuntime()).handle.db;
  const stored = async () => ({
    settings: await (await db()).select().from(appSettings),
    changes: await (await db()).select().from(settingsChanges),
  });
  const put = (body: unknown, who: Person = admin) =>
    call(settings.PUT, "PUT", "/api/admin/settings", { who, body });

  it("is not found for a non-admin and needs a session or token", async () => {
    expect((await call(settings.GET, "GET", "/api/admin/settings", { who: bob })).status).toBe(404);
    expect((await put({ models: { useEnvironment: true } }, bob)).status).toBe(404);
    const t = await call(test, "POST", "/api/admin/settings/test", {
      who: bob,
      body: { provider: "openai" },
    });
    expect(t.status).toBe(404);
    expect((await call(settings.GET, "GET", "/api/admin/settings")).status).toBe(401);
    expect(await stored()).toEqual({ settings: [], changes: [] });
  });

  it("refuses invalid bodies with 422 and changes nothing", async () => {
    const bad = [
      {},
      { models: { useEnvironment: false, model: "gpt-4" } },
      { models: { useEnvironment: false, model: "openai-compatible:a,gpt-4" } },
      { models: { useEnvironment: false, roles: { researcher: "openai:gpt-4.1" } } },
      { providers: { openai: { useEnvironment: "no" } } },
      { providers: { "openai-compatible": { useEnvironment: false } } },
      { search: { useEnvironment: false, providers: ["tavily"], keys: {} } },
      { search: { useEnvironment: false, providers: [] } },
      { runs: { useEnvironment: false, values: { RUN_MAX_ROUNDS: 0 } } },
      { runs: { useEnvironment: false, values: { RUN_MAX_ROUNDS: 2.5 } } },
      { colours: { useEnvironment: true } },
    ];
    for (const body of bad) {
      const res = await put(body);
      expect(res.status, JSON.stringify(body)).toBe(422);
      expect((await res.json()).error.code).toBe("validation_failed");
    }
    expect(await stored()).toEqual({ settings: [], changes: [] });
  });

  it("stores a key as AES-GCM ciphertext, never returns it, and records the change without it", async () => {
    const res = await put({
      providers: {
        "openai-compatible": { useEnvironment: false, baseUrl: llm.url, key: { value: KEY } },
      },
    });
    expect(res.status).toBe(200);
    const putText = await res.text();
    const { settings: rows, changes } = await stored();
    const rowText = JSON.stringify(rows);
    for (const form of encodings(KEY)) {
      expect(rowText).not.toContain(form);
      expect(putText).not.toContain(form);
    }
    const sealed = rows[0].value as { "openai-compatible": { key: { sealed: string; last4: string } } };
    const { key } = sealed["openai-compatible"];
    expect(key.sealed).toMatch(/^v1\.[\w-]+\.[\w-]+\.[\w-]+$/);
    expect(decryptSecret(key.sealed, process.env.AUTH_SECRET as string, "settings")).toBe(KEY);
    expect(() => decryptSecret(key.sealed, OTHER_SECRET, "settings")).toThrow(/AUTH_SECRET has changed/);
    // Under another AUTH_SECRET the key is not used, and the settings say why.
    const other = settingsOverlay(parseStoredSettings({ providers: rows[0].value }).settings, OTHER_SECRET);
    expect(other.overlay.OPENAI_COMPATIBLE_API_KEY).toBeUndefined();
    expect(other.problems.join(" ")).toMatch(/cannot be decrypted/);

    const got = await call(settings.GET, "GET", "/api/admin/settings", { who: admin });
    const text = await got.text();
    for (const form of encodings(KEY)) expect(text).not.toContain(form);
    expect(text).not.toContain(key.sealed);
    const view = JSON.parse(text);
    expect(view.providers["openai-compatible"]).toEqual({
      useEnvironment: false,
      key: { set: true, last4: KEY.slice(-4) },
      baseUrl: llm.url,
      defaultBaseUrl: "",
    });
    expect(changes.map((c) => c.summary)).toEqual(
      expect.arrayContaining([
        `OpenAI-compatible key set (…${KEY.slice(-4)})`,
        `OpenAI-compatible base URL: not set → ${llm.url}`,
      ]),
    );
    expect(JSON.stringify(changes)).not.toContain(KEY.slice(0, -4));
    expect(view.changes.map((c: { by: string }) => c.by)).toContain("admin@example.org");
  });

  it("keeps the stored key when the field is left empty and removes it on clear", async () => {
    const keep = await put({
      providers: { "openai-compatible": { useEnvironment: false, baseUrl: llm.url, key: { value: "" } } },
    });
    expect((await keep.json()).settings.providers["openai-compatible"].key).toEqual({
      set: true,
      last4: KEY.slice(-4),
    });
    const cleared = await put({
      providers: { openai: { useEnvironment: false, key: { value: "sk-openai-1234" } } },
    });
    expect((await cleared.json()).changes).toEqual([
      "OpenAI: use environment → set here",
      "OpenAI key set (…1234)",
    ]);
    const clear = await put({ providers: { openai: { useEnvironment: false, key: { clear: true } } } });
    const body = await clear.json();
    expect(body.settings.providers.openai.key).toEqual({ set: false, last4: null });
    expect(body.changes).toEqual(["OpenAI key cleared"]);
  });

  it("the next run gets the stored models (snapshotted) and its worker sends the stored key", async () => {
    const res = await put({
      models: {
        useEnvironment: false,
        model: "openai-compatible:stored-default",
        roles: { researcher: "openai-compatible:stored-researcher" },
      },
    });
    const { changes } = await res.json();
    expect(changes).toContain(
      "researcher model: openai-compatible:scripted-model → openai-compatible:stored-researcher",
    );
    expect(changes).toContain(
      "synthesis model: openai-compatible:scripted-model → openai-compatible:stored-default",
    );

    const created = await call(runs, "POST", "/api/runs", {
      who: bob,
      body: {
        question: "Which heat pumps work in the cold?",
        settings: { models: { supervisor: "openai-compatible:bobs-pick" } },
      },
    });
    expect(created.status).toBe(201);
    const run = await getRun(await db(), (await created.json()).id);
    if (!run) throw new Error("the run was not stored");
    expect(run.settings.models).toEqual({
      supervisor: "openai-compatible:bobs-pick",
      researcher: "openai-compatible:stored-researcher",
      compression: "openai-compatible:stored-default",
      summarization: "openai-compatible:stored-default",
      // synthesis follows the run's own supervisor choice along its chain
    });

    // What the worker does for a run: the effective configuration, then the run's engine deps.
    const rt = await getRuntime();
    const env = (await effectiveConfig(rt.handle.db, process.env)).env;
    expect(env.OPENAI_COMPATIBLE_BASE_URL).toBe(llm.url);
    const { store, events } = createRunWriters(rt.handle.db, rt.bus, run.id);
    const deps = createEngineDeps({
      db: rt.handle.db,
      run,
      store,
      events,
      signal: new AbortController().signal,
      env,
      registry: processModelRegistry(env),
    });
    llm.calls.length = 0;
    expect((await deps.models.text("researcher", { prompt: "Say OK." })).text).toBe("OK");
    expect((await deps.models.text("synthesis", { prompt: "Say OK." })).text).toBe("OK");
    expect(llm.calls).toEqual([
      { model: "stored-researcher", authorization: `Bearer ${KEY}` },
      { model: "bobs-pick", authorization: `Bearer ${KEY}` },
    ]);
  });

  it("tests a provider: works against the server, a readable failure for a bad key or a closed port", async () => {
    const testWith = async (body: Record<string, unknown>) => {
      const res = await call(test, "POST", "/api/admin/settings/test", { who: admin, body });
      expect(res.status).toBe(200);
      return (await res.json()) as { ok: boolean; message: string };
    };
    const works = await testWith({ provider: "openai-compatible" });
    expect(works.ok).toBe(true);
    expect(works.message).toMatch(
      /^Works \(model stored-default answered, and took a structured output and a tool call, in \d+ ms\)$/,
    );

    // One structured output and one tool call with the run's own schemas: a refusal shows here.
    llm.calls.length = 0;
    const noSchemas = await testWith({ provider: "openai-compatible", model: "no-schemas" });
    expect(noSchemas.ok).toBe(false);
    expect(noSchemas.message).toBe(
      "Model no-schemas answers, but refused a structured output (the run's coverage_assessment schema): " +
        "runs will fall back. The provider answered HTTP 400. The provider said: response_format json_schema is not supported",
    );

    const wrongKey = "sk-wrong-key-000011112222";
    const refused = await testWith({ provider: "openai-compatible", model: "m", key: wrongKey });
    expect(refused).toMatchObject({ ok: false });
    expect(refused.message).toMatch(/key was refused \(HTTP 401\)/);
    expect(refused.message).not.toContain(wrongKey);

    const closedUrl = `http://127.0.0.1:${await closedPort()}/v1`;
    const closed = await testWith({ provider: "openai-compatible", model: "m", baseUrl: closedUrl });
    expect(closed).toMatchObject({ ok: false });
    expect(closed.message).toBe(
      `Cannot reach ${closedUrl}: the connection was refused (is the server running?).`,
    );

    const bad = await call(test, "POST", "/api/admin/settings/test", {
      who: admin,
      body: { provider: "nope" },
    });
    expect(bad.status).toBe(422);
  });

  it("takes a chain of models per role, shows it, and names the member left out", async () => {
    const res = await put({
      models: {
        useEnvironment: false,
        model: "openai-compatible:stored-default",
        roles: { supervisor: "openai-compatible:first, google:gemini-2.5-flash ,openai-compatible:second" },
      },
    });
    expect(res.status).toBe(200);
    const view = await (await call(settings.GET, "GET", "/api/admin/settings", { who: admin })).json();
    const roles = new Map(view.roles.map((r: { role: string }) => [r.role, r]));
    const chain = ["openai-compatible:first", "openai-compatible:second"];
    expect(roles.get("supervisor")).toMatchObject({
      configured: true,
      model: "openai-compatible:first",
      models: chain,
      skipped: [expect.stringContaining("google:gemini-2.5-flash: set GOOGLE_GENERATIVE_AI_API_KEY")],
    });
    expect(roles.get("synthesis")).toMatchObject({ models: chain }); // follows the supervisor's chain
    expect(roles.get("researcher")).toMatchObject({
      models: ["openai-compatible:stored-default"],
      skipped: [],
    });
  });

  it("back to the environment: nothing stored is laid over it", async () => {
    const res = await put({
      models: { useEnvironment: true, roles: {} },
      providers: { "openai-compatible": { useEnvironment: true }, openai: { useEnvironment: true } },
    });
    expect(res.status).toBe(200);
    const { changes } = await res.json();
    expect(changes).toContain("models: set here → use environment");
    const env = (await effectiveConfig(await db(), process.env)).env;
    expect(env.OPENAI_COMPATIBLE_BASE_URL).toBe(process.env.OPENAI_COMPATIBLE_BASE_URL);
    expect(env.MODEL_RESEARCHER).toBeUndefined();
    // The stored key stays (sealed) for when the area is set here again.
    const view = await (await call(settings.GET, "GET", "/api/admin/settings", { who: admin })).json();
    expect(view.providers["openai-compatible"]).toMatchObject({ useEnvironment: true, key: { set: true } });
  });
});
