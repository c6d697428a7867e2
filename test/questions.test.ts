// Follow-up questions end to end below the HTTP layer, on embedded PGlite with the real queue and
// bus and mock models: asked (stored, enqueued, question.asked), answered by the job once however
// often it is delivered, cost added to the run, thread listed; 404 for another person, 409 without
// a report; the "not in the sources" path.
import { MockLanguageModelV4 } from "ai/test";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { DatabaseHandle } from "../db/client.ts";
import { listEventsAfter, writeRunEnd } from "../db/queries/events.ts";
import { createRun, getRun } from "../db/queries/runs.ts";
import { saveUserLimits } from "../db/queries/user-limits.ts";
import { createDbRunStore } from "../db/research-store.ts";
import { runs, sources, users } from "../db/schema.ts";
import { createModelRegistry } from "../lib/ai/registry.ts";
import { withEventTransaction } from "../lib/jobs/event-sink.ts";
import { answerQuestionJob } from "../lib/jobs/questions/answer-job.ts";
import { QUESTION_QUEUE } from "../lib/jobs/questions/queue.ts";
import { getBoss } from "../lib/jobs/queue.ts";
import type { Runtime } from "../lib/jobs/runtime.ts";
import { askQuestion } from "../lib/server/questions/ask-question.ts";
import { listQuestions } from "../lib/server/questions/list-questions.ts";
import { reportWithThread } from "../lib/server/questions/thread-markdown.ts";
import { closeActionRuntime, openActionRuntime } from "./support/action-runtime.ts";
import { objectModel, promptParts, streamOf } from "./support/report-harness.ts";

let h: DatabaseHandle;
let rt: Runtime;
beforeAll(async () => {
  ({ h, rt } = await openActionRuntime());
}, 60_000);
afterAll(() => closeActionRuntime(h));

const OWNER = "owner";
const FROST =
  "Air-source heat pumps kept 90 percent of their output at minus 15 degrees in the Nordic field trial.";
const PRICES = "Installation prices in Sweden averaged 12,000 euros in 2024 for a family house.";

/** Answers by the scripted replies in order; records each prompt. */
function answerModel(replies: string[]) {
  const prompts: string[] = [];
  const model = new MockLanguageModelV4({
    provider: "mock",
    modelId: "answer",
    doStream: async (options) => {
      prompts.push(promptParts(options).user);
      return streamOf([replies[prompts.length - 1] ?? "The sources do not answer this."]);
    },
  });
  return { model, prompts };
}

function registryWith(answer: MockLanguageModelV4) {
  const judge = objectModel("judge", () => ({ verdicts: [] }));
  const models: Record<string, MockLanguageModelV4> = { answer, judge };
  return createModelRegistry({
    env: { MODEL: "mock:answer", MODEL_SUMMARIZATION: "mock:judge" },
    providerFactories: { mock: (id) => models[id] },
    settings: { timeoutMs: 5_000, retry: { maxAttempts: 1 } },
    sleep: async () => {},
  });
}

async function finishedRun(withReport = true) {
  const run = await createRun(h.db, {
    ownerId: OWNER,
    question: "Do heat pumps work in frost?",
    settings: {},
  });
  const [frost, prices] = await h.db
    .insert(sources)
    .values([
      {
        runId: run.id,
        url: "https://trial.example/frost",
        normalizedUrl: "trial.example/frost",
        title: "Nordic trial",
        content: FROST,
      },
      {
        runId: run.id,
        url: "https://prices.example/se",
        normalizedUrl: "prices.example/se",
        title: "Swedish prices",
        content: PRICES,
      },
    ])
    .returning();
  if (withReport) {
    const store = createDbRunStore(h.db, run.id);
    await store.saveReport({
      markdown:
        "# Frost\n\nThey keep most of their output [1].\n\n## Sources\n\n1. [Nordic trial](https://trial.example/frost)\n",
      partial: false,
      citationStats: {},
    });
    await store.saveCitations([
      {
        number: 1,
        sourceId: frost.id,
        sentence: "They keep most of their output.",
        support: "supported",
        reason: "",
        passage: FROST,
      },
    ]);
  }
  await withEventTransaction(h.db, rt.bus, (tx, events) =>
    writeRunEnd(tx, run.id, { type: "run.completed", sources: 2, citations: 1, partial: false }, (e) =>
      events.append(run.id, e),
    ),
  );
  return { run, frost, prices };
}

const job = (questionId: string, registry: ReturnType<typeof registryWith>) =>
  answerQuestionJob({
    handle: h,
    bus: rt.bus,
    questionId,
    signal: new AbortController().signal,
    env: {},
    registry,
  });

describe("follow-up questions", () => {
  it("asks, answers once from the stored sources, adds the cost to the run and lists the thread", async () => {
    const { run, frost, prices } = await finishedRun();
    const { model, prompts } = answerModel([
      "Prices in Sweden averaged 12,000 euros in 2024 for a family house [2].",
      "In 2024 a family house paid 12,000 euros on average [2].",
    ]);
    const registry = registryWith(model);
    const { id } = await askQuestion(rt, run.id, OWNER, {
      question: "What did installation prices in Sweden cost?",
    });
    const boss = await getBoss(h);
    const queued = await boss.findJobs(QUESTION_QUEUE, { data: { questionId: id } });
    expect(queued).toHaveLength(1);

    const deltas: string[] = [];
    const stop = rt.bus.subscribe(run.id, (m) => {
      if (m.kind === "delta" && m.questionId === id) deltas.push(m.text);
    });
    await job(id, registry);
    stop();
    // Streamed live on the run's bus (the event stream sends them as question.delta).
    expect(deltas.join("")).toContain("12,000 euros");
    await job(id, registry); // delivered again (a worker killed after answering): answered once
    expect(prompts).toHaveLength(1);
    expect(prompts[0]).toContain(PRICES);

    const [q] = await listQuestions(rt, run.id, OWNER);
    expect(q).toMatchObject({ id, status: "answered", model: "mock:answer" });
    // The report cites the trial as [1]; the price page, read but not cited, is [2] in the thread.
    expect(q.answer).toContain("[2]");
    expect(q.citations).toEqual([
      expect.objectContaining({ n: 2, sourceId: prices.id, support: "supported" }),
    ]);
    expect(q.citations[0].passage).toContain("12,000 euros");
    // The check's reason is stored with the answer in English and as data, for a page in another language.
    expect(q.citations[0]).toMatchObject({
      reason: "lexical: the sentence is quoted verbatim from the source",
      because: { code: "verdict_quoted" },
    });
    expect(q.citations.some((c) => c.sourceId === frost.id)).toBe(false);

    const types = (await listEventsAfter(h.db, run.id, 0)).map((e) => e.type);
    expect(types.slice(-3)).toEqual(["run.completed", "question.asked", "question.answered"]);
    const usage = (await getRun(h.db, run.id))?.usage as {
      total: { calls: number };
      byRole: Record<string, unknown>;
    };
    expect(usage.total.calls).toBe(1);
    expect(usage.byRole.synthesis).toBeDefined();

    // A follow-up gets the earlier question and answer as context.
    const second = await askQuestion(rt, run.id, OWNER, {
      question: "And the price for a family house in 2024?",
    });
    await job(second.id, registry);
    expect(prompts[1]).toContain("Question: What did installation prices in Sweden cost?");
    expect(prompts[1]).toContain("Answer: Prices in Sweden averaged 12,000 euros");
    expect((await listQuestions(rt, run.id, OWNER)).map((x) => x.status)).toEqual(["answered", "answered"]);
    const after = (await getRun(h.db, run.id))?.usage as { total: { calls: number } } | undefined;
    expect(after?.total.calls).toBe(2);

    // The download carries the thread, and the answers' extra source so their [2] resolves.
    const md = await reportWithThread(
      rt,
      run.id,
      "# Frost\n\nThey work [1].\n\n## Sources\n\n[1] [Nordic trial](https://trial.example/frost)\n",
    );
    expect(md).toContain(
      "## Questions about this report\n\n### What did installation prices in Sweden cost?\n\nPrices in Sweden",
    );
    expect(md).toContain("[2] [Swedish prices](https://prices.example/se)");
    expect(md).not.toContain("[1] [Nordic trial](https://trial.example/frost)\n\n[1]");
  });

  it("says the sources do not answer when no passage is about the question, without asking a model", async () => {
    const { run } = await finishedRun();
    const { model, prompts } = answerModel([]);
    const { id } = await askQuestion(rt, run.id, OWNER, { question: "How many moons does Jupiter have?" });
    await job(id, registryWith(model));
    expect(prompts).toHaveLength(0);
    const [q] = await listQuestions(rt, run.id, OWNER);
    expect(q).toMatchObject({ status: "not_in_sources", answer: null, citations: [] });
  });

  it("records a failed answer with the provider's words, as its English reason and as a code", async () => {
    const { run } = await finishedRun();
    const model = new MockLanguageModelV4({
      provider: "mock",
      modelId: "answer",
      doStream: async () => {
        throw new Error("Overloaded: try again later");
      },
    });
    const { id } = await askQuestion(rt, run.id, OWNER, { question: "What did installation prices cost?" });
    await job(id, registryWith(model));
    const [q] = await listQuestions(rt, run.id, OWNER);
    expect(q.status).toBe("failed");
    const [failed] = (await listEventsAfter(h.db, run.id, 0)).filter((e) => e.type === "question.failed");
    const { reason, because } = failed.payload as { reason: string; because: unknown };
    expect(reason).toContain("Overloaded: try again later");
    // The run page says the code in its language; the provider's words are shown as they were said.
    expect(because).toEqual({ code: "answer_failed", values: { said: reason } });
    // The thread shows it too, from the question's own row (the events may be long gone).
    expect(q).toMatchObject({ error: reason, errorBecause: because });
  });

  it("answers 404 for another person's run and 409 for a run without a report, storing nothing", async () => {
    const { run } = await finishedRun();
    await expect(askQuestion(rt, run.id, "someone-else", { question: "Frost?" })).rejects.toMatchObject({
      code: "not_found",
    });
    await expect(listQuestions(rt, run.id, "someone-else")).rejects.toMatchObject({ code: "not_found" });
    const bare = await finishedRun(false);
    await expect(askQuestion(rt, bare.run.id, OWNER, { question: "Frost?" })).rejects.toMatchObject({
      code: "conflict",
    });
    expect(await listQuestions(rt, bare.run.id, OWNER)).toEqual([]);
    expect(await listQuestions(rt, run.id, OWNER)).toEqual([]);
  });

  it("refuses a question once the owner's runs reached their monthly cost limit (429)", async () => {
    const { run } = await finishedRun();
    await h.db
      .insert(users)
      .values({ id: OWNER, name: "Owner", email: "owner@example.org" })
      .onConflictDoNothing();
    await saveUserLimits(h.db, OWNER, { maxConcurrentRuns: null, monthlyCostLimitUsd: 1 });
    await h.db
      .update(runs)
      .set({ usage: { total: { costUsd: 1.5 } } })
      .where(eq(runs.id, run.id));
    await expect(askQuestion(rt, run.id, OWNER, { question: "Frost output?" })).rejects.toMatchObject({
      code: "rate_limited",
    });
    expect(await listQuestions(rt, run.id, OWNER)).toEqual([]);
  });
});
