/**
 * Issue 31's two figures for questions about a report, against the built app with the scripted
 * model: "follow-up question → first answer token" (POST /api/runs/:id/questions sent → the first
 * question.delta received on the run's stream; target: the model's own first-token latency + 150
 * ms, so queueing, retrieval and streaming add at most 150 ms) and "answer with 10 citations → all
 * verdicts stored" (the answer call's end at the model → the question.answered row, written with
 * the stored verdicts; target: one citation-check call's latency + 150 ms, so the ten citations are
 * judged in one call, not one after another). One small run makes the report and its sources;
 * every answer cites one read source ten times in sentences the lexical pre-check cannot settle, so
 * the check goes to the model. The model's latencies are the script's: set here, measured there.
 */
import type { ScriptRule } from "../../test/support/llm-server.ts";
import { roleMatch } from "../../test/support/script-roles.ts";
import { benchScript } from "../lib/bench-script.ts";
import { atMost, type BenchContext, type Benchmark, type Figure, median } from "../lib/figure.ts";
import { followRun, readEvents } from "../lib/run-events.ts";
import { type BenchWorld, startBenchWorld } from "../lib/world.ts";

/** Every model call's latency (the world's), and the answer's and the check's own on top of it. */
const BASE_LATENCY_MS = 20;
const ANSWER_DELAY_MS = 300;
const CHECK_DELAY_MS = 250;
const CITATIONS = 10;
/** Words of the running-costs fixture page, so retrieval finds its passages. */
const QUESTION = "How much is the gas standing charge per year";

/** Ten sentences citing source `n`, each with a number the source lacks (no lexical verdict). */
function answerText(n: number): string {
  return Array.from(
    { length: CITATIONS },
    (_, i) => `Household comparison ${i + 1} puts the standing charge in bracket ${101 + i} [${n}].`,
  ).join(" ");
}

function questionRules(n: number): ScriptRule[] {
  return [
    {
      name: "question",
      match: roleMatch.question,
      replies: [{ kind: "text", text: answerText(n), delayMs: ANSWER_DELAY_MS }],
      repeat: true,
    },
    {
      name: "question-check",
      match: { ...roleMatch.citationCheck, user: "Household comparison" },
      replies: [
        {
          kind: "json",
          value: {
            verdicts: Array.from({ length: CITATIONS }, (_, i) => ({
              id: i + 1,
              verdict: "supported",
              reason: "The page states the standing charge.",
            })),
          },
          delayMs: CHECK_DELAY_MS,
        },
      ],
      repeat: true,
    },
  ];
}

interface Asked {
  firstDeltaMs: number;
  verdictsMs: number;
  /** What the model itself took: to its first token (the script's delay) and for the check call. */
  modelFirstTokenMs: number;
  checkCallMs: number;
}

/** The run's stream after `after` until the question's end: its first delta and its end row's time. */
async function followQuestion(world: BenchWorld, runId: string, after: number, questionId: string) {
  const events = await readEvents(world, runId, {
    after,
    deltas: true,
    timeoutMs: 30_000,
    until: (e) =>
      e.data.questionId === questionId && (e.type === "question.answered" || e.type === "question.failed"),
  });
  const own = events.filter((e) => e.data.questionId === questionId);
  const end = own[own.length - 1];
  if (end.type === "question.failed") throw new Error(`question ${questionId} failed: ${end.data.reason}`);
  const firstDelta = own.find((e) => e.type === "question.delta")?.receivedAt;
  if (firstDelta === undefined) throw new Error(`question ${questionId}: no delta seen`);
  return { firstDelta, answeredAt: end.at, status: String(end.data.status) };
}

async function ask(world: BenchWorld, runId: string): Promise<Asked> {
  const { lastEventSeq } = await world.get<{ lastEventSeq: number }>(`/api/runs/${runId}`);
  const seen = world.llm.requests.length;
  const postedAt = Date.now();
  const r = await fetch(`${world.url}/api/runs/${runId}/questions`, {
    method: "POST",
    headers: { cookie: world.cookie, origin: world.url, "content-type": "application/json" },
    body: JSON.stringify({ question: QUESTION }),
  });
  if (r.status !== 202) throw new Error(`POST questions: ${r.status} ${await r.text()}`);
  const { id } = (await r.json()) as { id: string };
  const end = await followQuestion(world, runId, lastEventSeq, id);
  if (end.status !== "answered") throw new Error(`question ${id}: ${end.status}, not answered`);
  const calls = world.llm.requests.slice(seen);
  const answer = calls.find((c) => c.rule === "question");
  const check = calls.find((c) => c.rule === "question-check");
  if (!answer?.endedAt || !check?.endedAt) throw new Error(`question ${id}: its model calls were not made`);
  const [stored] = (
    await world.get<{ id: string; citations: { support: string }[] }[]>(`/api/runs/${runId}/questions`)
  ).filter((q) => q.id === id);
  const judged = stored?.citations.filter((c) => c.support !== "unchecked").length ?? 0;
  if (judged !== CITATIONS) throw new Error(`question ${id}: ${judged} of ${CITATIONS} verdicts stored`);
  return {
    firstDeltaMs: end.firstDelta - postedAt,
    verdictsMs: end.answeredAt - answer.endedAt,
    modelFirstTokenMs: BASE_LATENCY_MS + ANSWER_DELAY_MS,
    checkCallMs: check.endedAt - check.at,
  };
}

/** A finished run whose report cites the running-costs page; returns its id and that source's number. */
async function finishedRun(world: BenchWorld): Promise<{ id: string; n: number }> {
  const script = benchScript({ webUrl: world.web.url, rounds: 1, perRound: 2 });
  world.script(script.rules);
  const { id } = await world.startRun("Heat pump or gas boiler: what does a household pay?", {
    clarification: false,
    maxConcurrentResearchers: 2,
    maxSupervisionRounds: 0,
  });
  const events = await followRun(world, id, { timeoutMs: 120_000 });
  if (events.at(-1)?.type !== "run.completed")
    throw new Error(`follow-up: the run ended ${events.at(-1)?.type}`);
  const run = await world.get<{
    sources: { id: string; url: string }[];
    citations: { number: number; sourceId: string }[];
  }>(`/api/runs/${id}`);
  const costs = run.sources.find((s) => s.url.includes("running-costs"));
  // Any cited source will do for the answer's ten markers; the running-costs page when it is cited.
  const n = (run.citations.find((c) => c.sourceId === costs?.id) ?? run.citations[0])?.number;
  if (!n) throw new Error("follow-up: the report cites no source");
  world.script([...questionRules(n), ...script.rules]);
  return { id, n };
}

function figures(samples: Asked[]): Figure[] {
  const firstToken = median(samples.map((s) => s.firstDeltaMs));
  const modelFirstToken = median(samples.map((s) => s.modelFirstTokenMs));
  const verdicts = median(samples.map((s) => s.verdictsMs));
  const checkCall = median(samples.map((s) => s.checkCallMs));
  const details = { questions: samples.length, citationsPerAnswer: CITATIONS, samples };
  return [
    {
      id: "follow-up-first-token",
      name: "follow-up question → first answer token, median",
      value: firstToken,
      unit: "ms",
      ...atMost(firstToken, modelFirstToken + 150),
      details: { ...details, modelFirstTokenMs: modelFirstToken },
    },
    {
      id: "follow-up-verdicts",
      name: `answer with ${CITATIONS} citations → all verdicts stored, median`,
      value: verdicts,
      unit: "ms",
      ...atMost(verdicts, Math.round(checkCall) + 150),
      details: { ...details, checkCallMedianMs: checkCall },
    },
  ];
}

async function measure(ctx: BenchContext): Promise<Figure[]> {
  const world = await startBenchWorld({ modelLatencyMs: BASE_LATENCY_MS, webLatencyMs: 10 });
  try {
    const { id } = await finishedRun(world);
    await ask(world, id); // warm-up: the first question compiles the route and indexes the run's passages
    const samples: Asked[] = [];
    for (let i = 0; i < (ctx.quick ? 3 : 10); i++) samples.push(await ask(world, id));
    ctx.log(`first token: ${samples.map((s) => s.firstDeltaMs).join(" ")} ms`);
    ctx.log(`verdicts stored: ${samples.map((s) => s.verdictsMs).join(" ")} ms`);
    ctx.log(`check call: ${samples.map((s) => s.checkCallMs).join(" ")} ms`);
    return figures(samples);
  } finally {
    await world.close();
  }
}

export const benchmark: Benchmark = { id: "follow-up", run: measure };
