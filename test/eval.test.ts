// `npm run eval` end to end: the CLI (eval/run.ts) in a child process, as a user runs it, against
// the scripted OpenAI-compatible server and the local web fixture, over two questions (one in
// German, whose English report is a language mismatch); then `--compare` of two result files.
import { execFile } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { researchScript } from "../e2e/support/research-script.ts";
import type { EvalResult } from "../eval/summary.ts";
import { COLUMNS } from "../eval/table.ts";
import { type ScriptedLlm, startScriptedLlm } from "./support/llm-server.ts";
import { startWebFixture, type WebFixture } from "./support/web-fixture.ts";

const run = promisify(execFile);
const root = path.resolve(import.meta.dirname, "..");
const QUESTIONS = {
  settings: { maxSupervisionRounds: 1 },
  questions: [
    {
      id: "heat-pumps",
      question: "How do heat pumps compare with gas boilers on efficiency and running costs?",
    },
    {
      id: "waermepumpe-de",
      question: "Wie schneidet eine Wärmepumpe bei Kälte und bei den Kosten gegen einen Gaskessel ab?",
    },
  ],
};

let llm: ScriptedLlm;
let web: WebFixture;
let dir: string;

/** The e2e research script, with each researcher's replies once per question (questions run in turn). */
function scriptForQuestions(webUrl: string, n: number) {
  return researchScript({ webUrl }).map((rule) =>
    rule.name?.startsWith("researcher-")
      ? { ...rule, replies: Array.from({ length: n }, () => rule.replies).flat() }
      : rule,
  );
}

async function evalCli(args: string[]): Promise<{ stdout: string; stderr: string; code: number }> {
  const env = {
    ...process.env,
    MODEL: "openai-compatible:scripted-model",
    OPENAI_COMPATIBLE_BASE_URL: llm.url,
    OPENAI_COMPATIBLE_API_KEY: "test-key",
    SEARCH_PROVIDERS: "searxng",
    SEARXNG_URL: web.url,
    FETCH_ALLOWED_HOSTS: new URL(web.url).host,
    MODEL_MAX_RETRIES: "0",
  };
  try {
    const r = await run(process.execPath, [path.join(root, "eval", "run.ts"), ...args], { cwd: root, env });
    return { ...r, code: 0 };
  } catch (e) {
    const err = e as { stdout: string; stderr: string; code: number };
    return { stdout: err.stdout, stderr: err.stderr, code: err.code };
  }
}

beforeAll(async () => {
  [llm, web] = await Promise.all([startScriptedLlm(), startWebFixture()]);
  llm.setScript(scriptForQuestions(web.url, QUESTIONS.questions.length));
  dir = fs.mkdtempSync(path.join(os.tmpdir(), "dr-eval-"));
  fs.writeFileSync(path.join(dir, "questions.json"), JSON.stringify(QUESTIONS));
});

afterAll(async () => {
  await Promise.all([llm?.close(), web?.close()]);
  if (dir) fs.rmSync(dir, { recursive: true, force: true });
});

describe("npm run eval", () => {
  it("runs every question through the engine, prints the table and writes the result JSON", async () => {
    const out = path.join(dir, "a.json");
    const r = await evalCli(["--questions", path.join(dir, "questions.json"), "--out", out]);
    expect(r.stderr).not.toMatch(/Error/);
    expect(r.code).toBe(0);
    const lines = r.stdout.split("\n");
    const header = lines.find((l) => l.startsWith("question "));
    expect(header?.split("|").map((c) => c.trim())).toEqual([...COLUMNS]);
    const row = (id: string) =>
      lines
        .find((l) => l.startsWith(`${id} `))
        ?.split("|")
        .map((c) => c.trim());
    expect(row("heat-pumps")?.slice(0, 2)).toEqual(["heat-pumps", "yes"]);
    expect(row("heat-pumps")?.[7]).toBe("yes (en/en)");
    expect(row("waermepumpe-de")?.[7]).toBe("no (de/en)");
    expect(row("OVERALL")?.slice(0, 2)).toEqual(["OVERALL", "2/2"]);
    expect(row("OVERALL")?.[7]).toBe("1/2");
    expect(r.stdout).toContain(`wrote ${out}`);

    const result = JSON.parse(fs.readFileSync(out, "utf8")) as EvalResult;
    expect(result.version).toBe(1);
    expect(result.config.model).toBe("openai-compatible:scripted-model");
    expect(result.questions.map((q) => [q.id, q.status, q.completed])).toEqual([
      ["heat-pumps", "completed", true],
      ["waermepumpe-de", "completed", true],
    ]);
    for (const q of result.questions) {
      // The scripted plan has two directives; each researcher reads one page of its search results.
      expect(q.directives.map((d) => d.sourcesRead)).toEqual([1, 1]);
      expect(q.directives.every((d) => d.sourcesSeen >= d.sourcesRead)).toBe(true);
      expect(q.sourcesReadPerDirective).toBe(1);
      // The report cites [1], [2] and an unknown [9]: two references kept, one dropped.
      expect(q.citations).toMatchObject({ resolved: 2, unresolved: 1 });
      expect(q.citations.total).toBe(Object.values(q.support).reduce((a, b) => a + b, 0));
      expect(q.citations.total).toBeGreaterThan(0);
      expect(q.rounds).toBeGreaterThanOrEqual(1);
      expect(q.tokens.total).toBeGreaterThan(0);
      expect(q.tokens.total).toBe(q.tokens.input + q.tokens.output);
    }
    expect(result.overall).toMatchObject({
      questions: 2,
      completed: 2,
      languageMatches: 1,
      languageChecked: 2,
    });
    expect(result.overall.tokens).toBe(result.questions[0].tokens.total + result.questions[1].tokens.total);

    // Compare against a copy where B has one more unsupported citation than A.
    const b = structuredClone(result);
    b.overall.support.unsupported = (b.overall.support.unsupported ?? 0) + 1;
    b.overall.tokens += 100;
    fs.writeFileSync(path.join(dir, "b.json"), JSON.stringify(b));
    const c = await evalCli(["--compare", out, path.join(dir, "b.json")]);
    expect(c.code).toBe(0);
    const cmp = c.stdout.split("\n").map((l) => l.split("|").map((x) => x.trim()));
    expect(cmp.find((l) => l[0] === "OVERALL" && l[1] === "unsupported")?.[4]).toBe("+1");
    expect(cmp.find((l) => l[0] === "OVERALL" && l[1] === "tokens")?.[4]).toBe("+100");
    expect(cmp.find((l) => l[0] === "OVERALL" && l[1] === "completed")?.[4]).toBe("0");
    // Unchanged questions list no per-question rows.
    expect(cmp.some((l) => l[0] === "heat-pumps")).toBe(false);
  }, 120_000);

  it("rejects a malformed question set before any model call", async () => {
    const bad = path.join(dir, "bad.json");
    fs.writeFileSync(bad, JSON.stringify({ questions: [{ id: "x" }] }));
    const requests = llm.requests.length;
    const r = await evalCli(["--questions", bad, "--out", path.join(dir, "never.json")]);
    expect(r.code).not.toBe(0);
    expect(r.stderr).toContain("is not a question set");
    expect(llm.requests.length).toBe(requests);
    expect(fs.existsSync(path.join(dir, "never.json"))).toBe(false);
  });
});
