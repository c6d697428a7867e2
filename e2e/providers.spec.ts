/**
 * One full research run through each hosted provider's own package: the built app started with
 * `MODEL=openai:…` and OPENAI_BASE_URL, `anthropic:…` and ANTHROPIC_BASE_URL, `google:…` and
 * GOOGLE_GENERATIVE_AI_BASE_URL, each pointed at a scripted server that speaks that provider's
 * wire format and enforces its documented request rules. The judge is the server's own log: no
 * broken rule, no 4xx, every structured output and tool of the app received. The runs are tiny
 * (one coverage round, two directives) and the three apps run side by side.
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { expect, test } from "@playwright/test";
import { type RecordedRequest, type ScriptedLlm, startScriptedLlm } from "../test/support/llm-server.ts";
import { type AppServer, startApp } from "./app-server.ts";
import { webUrl } from "./support/helpers.ts";
import { everySchemaScript, TOPIC_A, TOPIC_B } from "./support/research-script.ts";
import { signUp } from "./support/session.ts";

const PROVIDERS = {
  openai: { model: "gpt-5.1", key: "OPENAI_API_KEY", baseUrl: "OPENAI_BASE_URL", format: "openai-responses" },
  anthropic: {
    model: "claude-sonnet-4-5",
    key: "ANTHROPIC_API_KEY",
    baseUrl: "ANTHROPIC_BASE_URL",
    format: "anthropic",
  },
  google: {
    model: "gemini-2.5-flash",
    key: "GOOGLE_GENERATIVE_AI_API_KEY",
    baseUrl: "GOOGLE_GENERATIVE_AI_BASE_URL",
    format: "google",
  },
} as const;
type Provider = keyof typeof PROVIDERS;

/** Every structured output and tool the app sends a model (one run with a clarifier and a revised plan asks for all). */
const APP_SCHEMAS = [
  "clarification",
  "directive_plan",
  "decomposition_critique",
  "directive_revision",
  "coverage_assessment",
  "citation_verdicts",
  "knowledge_items",
];
const APP_TOOLS = ["web_search", "extract_content", "think", "research_complete"];

const QUESTION = "Heat pump or gas boiler for a typical home in a cold climate?";
const SETTINGS = {
  maxSupervisionRounds: 1,
  maxDirectivesTotal: 2,
  clarification: true,
  heuristicGate: false,
};

// biome-ignore lint/suspicious/noExplicitAny: the run JSON is checked field by field below
type Json = any;
interface Outcome {
  /** Seconds until the app answered, and until its run ended. */
  seconds: { start: number; run: number };
  requests: RecordedRequest[];
  run: Json;
  knowledge: Json[];
  appLog: string;
}

async function runThrough(provider: Provider): Promise<Outcome> {
  const p = PROVIDERS[provider];
  const key = `test-key-${provider}`;
  const llm: ScriptedLlm = await startScriptedLlm({ keys: { [provider]: key } });
  llm.setScript(everySchemaScript({ webUrl: webUrl() }));
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), `dr-e2e-${provider}-`));
  let app: AppServer | undefined;
  const t0 = Date.now();
  try {
    app = await startApp(
      {
        ...JSON.parse(process.env.E2E_APP_ENV ?? "{}"),
        DATA_DIR: dataDir,
        MODEL: `${provider}:${p.model}`,
        [p.key]: key,
        [p.baseUrl]: llm.baseUrls[provider],
      },
      180_000,
    );
    const started = Date.now();
    const admin = await signUp(app.url);
    const headers = { cookie: admin.cookie, origin: app.url, "content-type": "application/json" };
    const created = await fetch(`${app.url}/api/runs`, {
      method: "POST",
      headers,
      body: JSON.stringify({ question: QUESTION, settings: SETTINGS }),
    });
    expect(created.status, await created.clone().text()).toBe(201);
    const { id } = await created.json();
    let run: Json;
    for (const deadline = Date.now() + 90_000; ; await new Promise((r) => setTimeout(r, 250))) {
      run = await (await fetch(`${app.url}/api/runs/${id}`, { headers })).json();
      if (["completed", "failed", "cancelled"].includes(run.status) || Date.now() > deadline) break;
    }
    const knowledge = (await (await fetch(`${app.url}/api/knowledge?status=provisional`, { headers })).json())
      .items;
    const seconds = { start: (started - t0) / 1000, run: (Date.now() - started) / 1000 };
    return { seconds, requests: [...llm.requests], run, knowledge, appLog: app.output() };
  } finally {
    await app?.stop();
    await llm.close();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

test("a full run through each of openai:, anthropic: and google:, judged by the provider server's log", async () => {
  // Three apps starting side by side share the machine's cores: generous, though each run takes seconds.
  test.setTimeout(240_000);
  const providers = Object.keys(PROVIDERS) as Provider[];
  const outcomes = await Promise.all(providers.map(runThrough));

  for (const [i, provider] of providers.entries()) {
    const { seconds, requests, run, knowledge, appLog } = outcomes[i];
    test.info().annotations.push({
      type: "timing",
      description: `${provider}: app up in ${seconds.start} s, run finished ${seconds.run} s later, ${requests.length} model calls`,
    });
    const log = requests.map(
      (r) => `${r.status} ${r.schemaName ?? r.tools.join(",")} ${r.violations.join(" | ")}`,
    );
    const check = expect.configure({ soft: true, message: `${provider}:\n${log.join("\n")}` });
    // The server's own log: every request in the provider's format, none breaking a rule, no 4xx.
    check(requests.flatMap((r) => r.violations)).toEqual([]);
    check(requests.filter((r) => r.status >= 400 && r.status < 500).map((r) => r.status)).toEqual([]);
    check(new Set(requests.map((r) => r.format))).toEqual(new Set([PROVIDERS[provider].format]));
    check(new Set(requests.map((r) => r.model))).toEqual(new Set([PROVIDERS[provider].model]));
    check(new Set(requests.map((r) => r.schemaName).filter(Boolean))).toEqual(new Set(APP_SCHEMAS));
    check(new Set(requests.flatMap((r) => r.tools))).toEqual(new Set(APP_TOOLS));

    const about = expect.configure({
      soft: true,
      message: `${provider}: ${run.error ?? ""}\n${appLog.slice(-2000)}`,
    });
    about(run.status).toBe("completed");
    about(run.degradations).toEqual([]);
    // Round 0 fitted to the comparison: both sides researched, after a critique and a revision.
    about(run.directives.map((d: Json) => d.topic)).toEqual([TOPIC_A, TOPIC_B]);
    const [round0, round1] = run.supervisionHistory;
    about(round0?.assessment).toMatchObject({ questionKind: "comparison", revised: true, finalCount: 2 });
    // The coverage assessment came from the model, not the heuristic.
    about(round1?.assessment).toMatchObject({ method: "llm" });
    // Citations checked by the model, each with a verdict.
    about(run.citations.length).toBeGreaterThan(0);
    about(run.citations.map((c: Json) => c.support)).not.toContain("unchecked");
    about(run.citations.some((c: Json) => /^model: /.test(c.reason ?? ""))).toBe(true);
    about(knowledge.map((k: Json) => k.content)).toContain(
      "Cold-climate air-source heat pumps keep a COP above 2 well below freezing.",
    );
  }
});
