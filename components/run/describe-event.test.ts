import { createTranslator } from "next-intl";
import { describe, expect, it } from "vitest";
import type { EventOf, ResearchEvent, ResearchEventType } from "@/lib/research/events";
import de from "../../messages/de.json";
import en from "../../messages/en.json";
import zh from "../../messages/zh.json";
import { describeEvent as describeIn } from "./describe-event";

// The English words, through the same next-intl translator the page uses.
const english = createTranslator({ locale: "en", messages: en });
const describeEvent = (event: ResearchEvent) => describeIn(event, english);

const counts = {
  searches: 3,
  sourcesRead: 4,
  relevantSources: 3,
  lastSearchOverlap: 0.8,
  toolCalls: 9,
  toolBudget: 12,
};

/** One event of every type: the mapped type makes a new event type fail to compile until added here. */
const samples: { [T in ResearchEventType]: EventOf<T> } = {
  "run.created": { type: "run.created", question: "q", settings: {} },
  "run.started": { type: "run.started", attempt: 1 },
  "run.queue_position": { type: "run.queue_position", position: 2 },
  "run.resumed": { type: "run.resumed", phase: "supervision", attempt: 2 },
  "run.legacy_resume": { type: "run.legacy_resume", fromVersion: 1, toVersion: 2, note: "n" },
  "run.completed": { type: "run.completed", sources: 3, citations: 5, partial: false },
  "run.failed": { type: "run.failed", reason: "no model", partial: false },
  "run.cancelled": { type: "run.cancelled", reason: "cancelled by you" },
  "phase.started": { type: "phase.started", phase: "synthesis" },
  "phase.completed": { type: "phase.completed", phase: "brief", durationMs: 2400 },
  "clarification.requested": { type: "clarification.requested", question: "Mild or cold winters?" },
  "clarification.answered": { type: "clarification.answered", answer: "cold" },
  "brief.created": { type: "brief.created", brief: "b", knowledgeItems: 2 },
  "supervision.first_round_generate": { type: "supervision.first_round_generate", count: 3, topics: [] },
  "supervision.first_round_critique": {
    type: "supervision.first_round_critique",
    criteria: { redundancy: "ISSUE", coverage: "PASS", proportionality: "PASS", specificity: "ISSUE" },
    verdict: "v",
  },
  "supervision.first_round_revise": {
    type: "supervision.first_round_revise",
    skipped: false,
    before: 3,
    after: 2,
  },
  "supervision.first_round_decomposition": {
    type: "supervision.first_round_decomposition",
    initialCount: 3,
    finalCount: 2,
    revised: true,
    complexity: "comparison",
    added: 0,
    removed: 1,
    merged: 0,
  },
  "supervision.round_started": { type: "supervision.round_started", round: 1, pending: 2 },
  "supervision.think": { type: "supervision.think", round: 1, text: "Directive 2 is thin." },
  "supervision.assessment": {
    type: "supervision.assessment",
    round: 1,
    method: "heuristic",
    overallCoverage: 0.456,
    shouldContinue: true,
    rationale: "",
    followUps: [],
  },
  "supervision.heuristic_sufficient": {
    type: "supervision.heuristic_sufficient",
    round: 1,
    directives: 3,
    confidence: 1,
    reason: "r",
  },
  "supervision.round_completed": {
    type: "supervision.round_completed",
    round: 2,
    decision: "stop",
    reason: "enough",
  },
  "supervision.stopped_early": {
    type: "supervision.stopped_early",
    reason: "the owner asked for the report now",
    researched: 2,
  },
  "plan.awaiting_review": { type: "plan.awaiting_review", directives: 3 },
  "plan.approved": { type: "plan.approved", edited: true },
  "directive.created": {
    type: "directive.created",
    directiveId: "d",
    round: 1,
    topic: "x".repeat(200),
    priority: "high",
    origin: "supervisor",
  },
  "directive.duplicate_skipped": { type: "directive.duplicate_skipped", topic: "t", duplicateOf: "d" },
  "directive.rejected": { type: "directive.rejected", round: 1, topic: "t", reason: "over the cap" },
  "directive.skipped": { type: "directive.skipped", directiveId: "d", reason: "supervision had finished" },
  "directive.aged_out": {
    type: "directive.aged_out",
    directiveId: "d",
    round: 3,
    addedInRound: 1,
    topic: "t",
  },
  "directive.started": { type: "directive.started", directiveId: "d" },
  "directive.completed": { type: "directive.completed", directiveId: "d", sources: 1 },
  "directive.failed": { type: "directive.failed", directiveId: "d", error: "timeout" },
  "researcher.search": { type: "researcher.search", directiveId: "d", query: "heat pumps" },
  "researcher.search_results": {
    type: "researcher.search_results",
    directiveId: "d",
    query: "heat pumps",
    results: 8,
    fresh: 5,
    duplicates: 3,
    errors: [],
  },
  "researcher.fetch": { type: "researcher.fetch", directiveId: "d", url: "https://a.example/x", ok: true },
  "researcher.fetch_refused": {
    type: "researcher.fetch_refused",
    directiveId: "d",
    url: "https://x.example/?q=secret",
    reason: "not from this run",
  },
  "researcher.think": { type: "researcher.think", directiveId: "d", text: "Enough figures." },
  "researcher.reflection_injected": {
    type: "researcher.reflection_injected",
    directiveId: "d",
    after: "search",
  },
  "researcher.stopped": { type: "researcher.stopped", directiveId: "d", reason: "relevant_sources", counts },
  "researcher.complete": {
    type: "researcher.complete",
    directiveId: "d",
    reason: "similar_searches",
    toolCalls: 7,
  },
  "sources.rechecked": { type: "sources.rechecked", unchanged: 2, changed: 1, gone: 1 },
  "source.added": {
    type: "source.added",
    sourceId: "s",
    directiveId: "d",
    url: "https://a.example",
    title: "A study",
    domain: "a.example",
    quality: "HIGH",
  },
  "compression.retry": { type: "compression.retry", directiveId: "d", attempt: 2, droppedMessages: 4 },
  "compression.completed": { type: "compression.completed", directiveId: "d", fallback: false, chars: 900 },
  "report.started": { type: "report.started" },
  "report.delta": { type: "report.delta", text: "…" },
  "report.citations": { type: "report.citations", kept: 4, removedUnknown: 1, flattenedLinks: 0 },
  "report.support_checked": {
    type: "report.support_checked",
    supported: 3,
    partially_supported: 1,
    unsupported: 0,
    unchecked: 0,
  },
  "report.link_corrected": { type: "report.link_corrected", sourceId: "s", from: "a", to: "b" },
  "report.completed": { type: "report.completed", chars: 4000, citations: 4, partial: false },
  "token_limit.retry": {
    type: "token_limit.retry",
    phase: "synthesis",
    attempt: 1,
    removedChars: 9,
    budgetChars: 9,
  },
  "knowledge.extracted": { type: "knowledge.extracted", count: 2 },
  "run.degraded": {
    type: "run.degraded",
    step: "citation_check",
    round: null,
    model: "openai:gpt-5.1",
    error: "Invalid schema.",
    notice: "Citations were not checked: openai:gpt-5.1 refused the request (HTTP 400) — Invalid schema.",
  },
  "model.retry": { type: "model.retry", role: "researcher", attempt: 2, delayMs: 500 },
  "model.failover": {
    type: "model.failover",
    role: "supervisor",
    from: "openai:gpt-5.1",
    to: "anthropic:claude-sonnet-4-5",
    reason: "auth",
    detail: "HTTP 401: Incorrect API key provided",
  },
  "usage.updated": { type: "usage.updated", inputTokens: 1200, outputTokens: 300, cost: 0.0123 },
  "question.asked": { type: "question.asked", questionId: "q1", question: "And in Germany?" },
  "question.answered": { type: "question.answered", questionId: "q1", status: "answered", citations: 2 },
  "question.failed": { type: "question.failed", questionId: "q1", reason: "the model was unavailable" },
};

describe("describeEvent", () => {
  it.each(Object.values(samples))("describes $type in plain words, never by its raw name", (event) => {
    const text = describeEvent(event);
    expect(text.length).toBeGreaterThan(5);
    expect(text).not.toContain(event.type);
    // No engine words: no snake_case (relevant_sources, first_round…) and no dotted event names.
    expect(text).not.toMatch(/[a-z]_[a-z]/);
    expect(text).not.toMatch(/\b(phase|run|supervision|researcher|directive|report)\.[a-z]/);
    expect(text).not.toMatch(/^Step: /);
  });

  it("says what researchers do, with the URL and query they used", () => {
    expect(describeEvent(samples["researcher.search"])).toBe("Searching for “heat pumps”");
    expect(describeEvent(samples["researcher.fetch"])).toBe("Read https://a.example/x");
    expect(describeEvent({ ...samples["researcher.fetch"], ok: false, reason: "timeout" })).toBe(
      "Could not read https://a.example/x (timeout)",
    );
    expect(describeEvent(samples["researcher.fetch_refused"])).toBe(
      "Refused to read https://x.example/?q=secret — not from this run",
    );
    expect(describeEvent(samples["researcher.stopped"])).toBe(
      "Stopped because enough relevant pages were read (4 pages read, 3 searches)",
    );
    expect(describeEvent(samples["researcher.complete"])).toBe(
      "Researcher done: its searches kept finding the same pages (7 steps)",
    );
  });

  it("names a source by title, or by its address when it has none, with its quality in words", () => {
    expect(describeEvent(samples["source.added"])).toBe("Found a source: A study (high quality)");
    expect(describeEvent({ ...samples["source.added"], title: "", url: "https://a.example/p" })).toBe(
      "Found a source: a.example/p (high quality)",
    );
  });

  it("describes phases, plans and rounds in words", () => {
    expect(describeEvent(samples["phase.started"])).toBe("Writing the report");
    expect(describeEvent(samples["phase.completed"])).toBe("Finished writing the research brief in 2 s");
    expect(describeEvent(samples["directive.created"])).toBe(
      `Supervisor added a directive (round 1, high priority): ${"x".repeat(139)}…`,
    );
    expect(describeEvent({ ...samples["directive.created"], origin: "user", topic: "noise" })).toBe(
      "You added a directive (high priority): noise",
    );
    expect(describeEvent(samples["supervision.first_round_critique"])).toBe(
      "Plan reviewed: issues with redundancy, specificity",
    );
    expect(describeEvent(samples["supervision.assessment"])).toBe(
      "Round 1: coverage 46% (measured from the sources) — more research needed",
    );
    expect(describeEvent(samples["supervision.round_completed"])).toBe("Round 2: stopping — enough");
    expect(
      describeEvent({
        ...samples["supervision.round_completed"],
        reason: "coverage_sufficient: the supervisor judged coverage sufficient (overall 0.90): done",
      }),
    ).toBe("Round 2: stopping — the supervisor judged coverage sufficient: done");
    expect(
      describeEvent({
        ...samples["supervision.round_completed"],
        decision: "continue",
        reason: "2 directive(s) researched, 2 new source(s); heuristic confidence 0.65",
      }),
    ).toBe("Round 2: continuing — 2 directives researched, 2 new sources; coverage 65%");
  });

  it("names both models and the reason of a switch, and models left out at creation", () => {
    expect(describeEvent(samples["model.failover"])).toBe(
      "Switched from openai:gpt-5.1 to anthropic:claude-sonnet-4-5 (supervisor): the provider refused the key",
    );
    expect(
      describeEvent({ ...samples["run.created"], warnings: ["MODEL=anthropic:x: set ANTHROPIC_API_KEY"] }),
    ).toBe("Run created; 1 model left out: provider not set up");
  });

  it("counts tokens and cost as numbers of the locale", () => {
    expect(describeEvent(samples["usage.updated"])).toBe("Used 1,500 tokens so far ($0.0123)");
  });

  it("describes the end of a run", () => {
    expect(describeEvent(samples["run.failed"])).toBe("Failed: no model");
    expect(describeEvent(samples["run.completed"])).toBe("Completed with 3 sources and 5 citations");
    expect(describeEvent({ ...samples["run.completed"], sources: 1, citations: 1, partial: true })).toBe(
      "Completed with 1 source and 1 citation (partial report)",
    );
  });
});

describe("describeEvent in other languages", () => {
  const german = createTranslator({ locale: "de", messages: de as unknown as typeof en });
  const chinese = createTranslator({ locale: "zh", messages: zh as unknown as typeof en });

  it.each(Object.values(samples))("describes $type in German and Chinese, not in English", (event) => {
    const english = describeEvent(event);
    for (const t of [german, chinese]) {
      const text = describeIn(event, t);
      expect(text.length).toBeGreaterThan(1);
      expect(text).not.toContain(event.type);
      // The run's own data (a query, a URL, the engine's notice) may be the same in every language.
      if (!/“|https?:|—|openai:/.test(english)) expect(text).not.toBe(english);
    }
  });

  it("says the engine's reasons for a run's end and a skipped directive by their codes", () => {
    const timedOut: ResearchEvent = {
      type: "run.failed",
      reason: "The run exceeded its time limit of 900 s.",
      because: { code: "run_time_limit", values: { seconds: 900 } },
      partial: true,
    };
    expect(describeIn(timedOut, german)).toBe(
      "Fehlgeschlagen: Der Durchlauf hat sein Zeitlimit von 900 s überschritten.",
    );
    expect(describeIn(timedOut, chinese)).toContain("运行超过了 900 秒的时间限制。");
    const cancelled: ResearchEvent = {
      type: "run.cancelled",
      reason: "cancelled by the user",
      because: { code: "cancelled_by_user" },
    };
    expect(describeIn(cancelled, german)).toBe("Abgebrochen: Sie haben den Durchlauf abgebrochen");
    const skipped: ResearchEvent = {
      type: "directive.skipped",
      directiveId: "d",
      reason: "research was stopped early at the owner's request",
      because: { code: "skip_finished_early" },
    };
    expect(describeIn(skipped, chinese)).not.toContain("research was stopped");
    // An event from before the codes keeps the words it was written with.
    expect(describeIn({ ...timedOut, because: undefined }, german)).toBe(
      "Fehlgeschlagen: The run exceeded its time limit of 900 s.",
    );
  });

  it("says why a page was not read or refused, and why a question failed, by the reason's code", () => {
    const fetch = samples["researcher.fetch"];
    const gone = {
      ...fetch,
      url: "https://A.example/Path?q=1",
      ok: false,
      reason: "HTTP 404",
      because: { code: "fetch_http_error", values: { status: 404 } },
    } as const;
    expect(describeIn(gone, german)).toBe(
      "https://A.example/Path?q=1 konnte nicht gelesen werden (der Server antwortete mit HTTP 404)",
    );
    expect(describeIn(gone, chinese)).toBe("无法读取 https://A.example/Path?q=1（服务器返回了 HTTP 404）");
    const slow = {
      ...gone,
      reason: "Fetch timed out after 15000 ms",
      because: { code: "fetch_timeout", values: { seconds: 15 } },
    } as const;
    expect(describeIn(slow, german)).toContain("(der Server hat nicht innerhalb von 15 s geantwortet)");
    const network = { ...gone, because: { code: "fetch_network", values: { said: "ECONNRESET" } } } as const;
    expect(describeIn(network, chinese)).toContain("（网络错误：ECONNRESET）");

    const refused = {
      ...samples["researcher.fetch_refused"],
      because: { code: "fetch_not_admitted" },
    } as const;
    expect(describeIn(refused, german)).toBe(
      "Lesen von https://x.example/?q=secret verweigert – diese Adresse kam in den Suchergebnissen, der Frage, dem Rechercheauftrag oder den gelesenen Seiten dieses Durchlaufs nicht genau so vor",
    );
    expect(describeIn(refused, chinese)).toContain("该地址未以完全相同的写法出现在");

    const failed = samples["question.failed"];
    const noReport = {
      ...failed,
      reason: "the run has no report",
      because: { code: "answer_no_report" },
    } as const;
    expect(describeIn(noReport, german)).toBe(
      "Eine Frage konnte nicht beantwortet werden: der Durchlauf hat keinen Bericht",
    );
    expect(describeIn(noReport, chinese)).toBe("无法回答一个问题：该运行没有报告");
    const provider = {
      ...failed,
      because: { code: "answer_failed", values: { said: "Overloaded" } },
    } as const;
    expect(describeIn(provider, german)).toBe("Eine Frage konnte nicht beantwortet werden: Overloaded");
  });

  it("says an older event's reason, without a code, as the engine wrote it", () => {
    const old = { ...samples["researcher.fetch"], ok: false, reason: "timeout" } as const;
    expect(describeIn(old, german)).toBe("https://a.example/x konnte nicht gelesen werden (timeout)");
  });

  it("formats numbers, plurals and percentages for the locale", () => {
    expect(describeIn({ ...samples["usage.updated"], cost: undefined } as never, german)).toContain("1.500");
    expect(describeIn(samples["run.completed"], german)).toContain("3 Quellen");
    expect(describeIn(samples["supervision.assessment"], german)).toMatch(/46\s%/);
    expect(describeIn(samples["run.completed"], chinese)).toContain("3 个来源");
  });
});

describe("the supervisor's reasons in the page's language", () => {
  const german = createTranslator({ locale: "de", messages: de as unknown as typeof en });
  const chinese = createTranslator({ locale: "zh", messages: zh as unknown as typeof en });
  const revise = {
    type: "supervision.first_round_revise",
    skipped: true,
    reason: "every criterion passed",
    because: { code: "plan_all_passed" },
  } as const;
  const rejected = {
    ...samples["directive.rejected"],
    reason: "over the per-round follow-up cap of 2",
    because: { code: "reject_over_follow_ups", values: { max: 2 } },
  } as const;
  const continued = {
    ...samples["supervision.round_completed"],
    decision: "continue",
    reason: "2 directive(s) researched, 3 new source(s); heuristic confidence 0.65",
    because: { code: "round_continue", values: { directives: 2, sources: 3, coverage: 0.65 } },
  } as const;
  const stopped = {
    ...samples["supervision.round_completed"],
    reason:
      "coverage_sufficient: the supervisor judged coverage sufficient (overall 0.90): Die Quellen reichen.; the 1 queued directive(s) were still researched",
    because: {
      code: "round_model_sufficient",
      values: { coverage: 0.9, said: "Die Quellen reichen.", queued: 1 },
    },
  } as const;

  it("says a kept plan, a refused directive and a round's decision in German", () => {
    expect(describeIn(revise, german)).toBe("Plan unverändert beibehalten (die Prüfung fand keine Probleme)");
    expect(describeIn(rejected, german)).toBe(
      "Nicht hinzugefügt: t – über der Grenze von 2 Folgethemen pro Runde",
    );
    expect(describeIn(continued, german)).toBe(
      "Runde 2: geht weiter – 2 Richtungen recherchiert, 3 neue Quellen; Abdeckung 65\u00a0%",
    );
    // The model's own rationale as it wrote it, and the directives still researched after the stop.
    expect(describeIn(stopped, german)).toBe(
      "Runde 2: endet – der Supervisor hält die Abdeckung für ausreichend: Die Quellen reichen.; die wartende Richtung wurde trotzdem recherchiert",
    );
  });

  it("says them in Chinese and, from their codes, in English as before", () => {
    expect(describeIn(rejected, chinese)).toBe("未添加：t — 超出了每轮 2 个后续主题的上限");
    expect(describeIn(continued, chinese)).toBe("第 2 轮：继续 — 已研究 2 个方向，新增 3 个来源；覆盖度 65%");
    expect(describeEvent(continued)).toBe(
      "Round 2: continuing — 2 directives researched, 3 new sources; coverage 65%",
    );
    expect(describeEvent(stopped)).toBe(
      "Round 2: stopping — the supervisor judged coverage sufficient: Die Quellen reichen.; the queued directive was still researched",
    );
  });

  it("shows an event from before codes in the engine's words, made plain", () => {
    const { because: _, ...old } = continued;
    expect(describeIn(old, german)).toBe(
      "Runde 2: geht weiter – 2 directives researched, 3 new sources; coverage 65%",
    );
    const { because: __, ...oldRejected } = rejected;
    expect(describeIn(oldRejected, german)).toBe(
      "Nicht hinzugefügt: t – over the per-round follow-up cap of 2",
    );
  });
});
