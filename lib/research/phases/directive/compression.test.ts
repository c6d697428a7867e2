import type { ModelMessage } from "ai";
import { describe, expect, it } from "vitest";
import { apiError, scriptedModel, textResult } from "../../../../test/support/ai-mocks.ts";
import { eventsOf, makeDeps, promptText } from "../../../../test/support/researcher-harness.ts";
import { ContextWindowError } from "../../../ai/context-errors.ts";
import { BudgetExceededError } from "../../../ai/usage.ts";
import type { DirectiveRecord, RunStore, SourceRecord } from "../../store.ts";
import {
  compressFindings,
  fitTranscript,
  MAX_COMPRESSION_RETRIES,
  protectedMessages,
  renderHistory,
  shrinkBudget,
} from "./compression.ts";

const directive: DirectiveRecord = {
  id: "00000000-0000-4000-8000-000000000001",
  ordinal: 1,
  round: 0,
  topic: "Heat pump efficiency in cold climates",
  title: "A directive",
  perspective: "an engineer's",
  evidenceNeeded: "field measurements of COP below -10 °C",
  priority: "normal",
  origin: "supervisor",
  type: "initial",
  rationale: null,
  status: "running",
  error: null,
};

const source = (n: number, url: string, title: string): SourceRecord => ({
  id: `src-${n}`,
  url,
  normalizedUrl: url,
  title,
  domain: new URL(url).hostname,
  provider: "fake",
  quality: "UNKNOWN",
  snippet: null,
  content: null,
});

const sources = [
  source(1, "https://www.energy.gov/heat-pumps", "DOE heat pump guide"),
  source(2, "https://example.org/field-study", "Cold-climate field study"),
];

let id = 0;
const call = (toolName: string, input: Record<string, string>): ModelMessage => ({
  role: "assistant",
  content: [{ type: "tool-call", toolCallId: `t${++id}`, toolName, input }],
});
const result = (m: ModelMessage, value: string): ModelMessage => {
  const part = (m.content as { toolCallId: string; toolName: string }[])[0];
  return {
    role: "tool",
    content: [
      {
        type: "tool-result",
        toolCallId: part.toolCallId,
        toolName: part.toolName,
        output: { type: "text", value },
      },
    ],
  };
};
const step = (toolName: string, input: Record<string, string>, value: string): ModelMessage[] => {
  const c = call(toolName, input);
  return [c, result(c, value)];
};
const bulk = (tag: string) => `${tag} ${"filler text about heat pumps. ".repeat(40)}`;

/** search q1 → T1 → search q2 → T2 → read p1 → T3 → read p2 → T4, each result ~1.2k chars. */
function longHistory(): ModelMessage[] {
  return [
    { role: "user", content: `Your assigned research topic:\n${directive.topic}` },
    ...step("web_search", { query: "q-one" }, bulk("RESULTS-ONE")),
    ...step("think", { reflection: "THOUGHT-ONE" }, "Reflection recorded."),
    ...step("web_search", { query: "q-two" }, bulk("RESULTS-TWO")),
    ...step("think", { reflection: "THOUGHT-TWO" }, "Reflection recorded."),
    ...step("extract_content", { url: "https://example.org/p1" }, bulk("PAGE-ONE")),
    ...step("think", { reflection: "THOUGHT-THREE" }, "Reflection recorded."),
    ...step("extract_content", { url: "https://example.org/p2" }, bulk("PAGE-TWO")),
    ...step("think", { reflection: "THOUGHT-FOUR" }, "Reflection recorded."),
  ];
}

const overflow = () =>
  apiError({
    status: 400,
    body: {
      error: {
        message:
          "This model's maximum context length is 8192 tokens. However, your messages resulted in 12000 tokens. Please reduce the length of the messages.",
        type: "invalid_request_error",
        param: "messages",
        code: "context_length_exceeded",
      },
    },
  });

// Compression never touches the store; a store that throws proves it.
const noStore = new Proxy({} as RunStore, {
  get: (_, key) => {
    throw new Error(`compression must not use the store (${String(key)})`);
  },
});

function setup(model: ReturnType<typeof scriptedModel>, budget = 60_000) {
  return makeDeps({
    store: noStore,
    models: { compression: model },
    config: { compressionBudgetChars: budget },
  });
}

describe("compressFindings", () => {
  it("gives the model the numbered sources and the whole transcript, and appends the cited sources", async () => {
    const model = scriptedModel([
      textResult(
        "## Findings\nCOP stays above 1.5 at -15 °C [2], per DOE guidance [1].\n## Queries and tool calls made\n- q-one\n## Supervisor brief\nCovered: COP.",
      ),
    ]);
    const { deps, events } = setup(model);

    const r = await compressFindings(deps, directive, longHistory(), sources);

    expect(r.fallback).toBe(false);
    expect(r.droppedMessages).toBe(0);
    const sent = promptText(model.doGenerateCalls[0]);
    expect(sent).toContain("[1] DOE heat pump guide — https://www.energy.gov/heat-pumps");
    expect(sent).toContain("[2] Cold-climate field study — https://example.org/field-study");
    for (const marker of [
      "RESULTS-ONE",
      "THOUGHT-ONE",
      "PAGE-TWO",
      'Search: \\"q-one\\"',
      "field measurements of COP",
    ]) {
      expect(sent).toContain(marker);
    }
    expect(sent).toContain("Queries and tool calls made");
    expect(sent).toContain("Supervisor brief");
    expect(r.findings).toMatch(
      /### Sources\n\[1\] DOE heat pump guide — https:\/\/www\.energy\.gov\/heat-pumps\n\[2\] Cold-climate/,
    );
    expect(eventsOf(events, "compression.completed")).toEqual([
      { type: "compression.completed", directiveId: directive.id, fallback: false, chars: r.findings.length },
    ]);
  });

  it("over budget, drops the oldest messages but keeps the task, the last two thoughts and the last search", async () => {
    const model = scriptedModel([textResult("## Findings\nShort.")]);
    const { deps } = setup(model, 2_000);

    const r = await compressFindings(deps, directive, longHistory(), sources);

    const sent = promptText(model.doGenerateCalls[0]);
    expect(r.droppedMessages).toBeGreaterThan(0);
    // kept: the task, the last two reflections, the last search and its results (though older than the reads)
    for (const kept of [
      "Heat pump efficiency in cold climates",
      "THOUGHT-THREE",
      "THOUGHT-FOUR",
      'Search: \\"q-two\\"',
      "RESULTS-TWO",
    ]) {
      expect(sent).toContain(kept);
    }
    // dropped: the oldest material
    for (const gone of ["RESULTS-ONE", 'Search: \\"q-one\\"', "THOUGHT-ONE", "PAGE-ONE"]) {
      expect(sent).not.toContain(gone);
    }
    expect(sent).toContain("omitted to fit the budget");
  });

  it("retries with a shorter transcript after a context-window error, then succeeds", async () => {
    const model = scriptedModel([overflow(), textResult("## Findings\nFits now [1].")]);
    const { deps, events } = setup(model);

    const r = await compressFindings(deps, directive, longHistory(), sources);

    expect(r.fallback).toBe(false);
    expect(r.findings).toContain("Fits now [1].");
    expect(model.doGenerateCalls).toHaveLength(2);
    const [first, second] = model.doGenerateCalls.map(promptText);
    expect(second.length).toBeLessThan(first.length);
    expect(second).toContain("THOUGHT-FOUR");
    const retries = eventsOf(events, "compression.retry");
    expect(retries).toHaveLength(1);
    expect(retries[0]).toMatchObject({ directiveId: directive.id, attempt: 1 });
    expect(retries[0].droppedMessages).toBeGreaterThan(0);
    expect(retries[0].droppedMessages).toBe(r.droppedMessages);
  });

  it("returns the raw notes after the retries are exhausted", async () => {
    const errors = Array.from(
      { length: MAX_COMPRESSION_RETRIES + 1 },
      () => new ContextWindowError({ message: "prompt is too long" }),
    );
    const model = scriptedModel(errors);
    const { deps, events } = setup(model);

    const r = await compressFindings(deps, directive, longHistory(), sources);

    expect(model.doGenerateCalls).toHaveLength(4);
    expect(eventsOf(events, "compression.retry").map((e) => e.attempt)).toEqual([1, 2, 3]);
    expect(r.fallback).toBe(true);
    expect(r.findings).toMatch(/^Raw research notes/);
    for (const part of [
      "THOUGHT-FOUR",
      "RESULTS-TWO",
      'Search: "q-two"',
      "[2] Cold-climate field study — https://example.org/field-study",
    ]) {
      expect(r.findings).toContain(part);
    }
    expect(eventsOf(events, "compression.completed")[0]).toMatchObject({
      fallback: true,
      chars: r.findings.length,
    });
  });

  it("goes straight to the raw notes on a failure that a shorter prompt would not fix", async () => {
    const model = scriptedModel([
      apiError({ status: 401, body: { error: { message: "Incorrect API key provided" } } }),
    ]);
    const { deps, events } = setup(model);

    const r = await compressFindings(deps, directive, longHistory(), sources);

    expect(model.doGenerateCalls).toHaveLength(1);
    expect(eventsOf(events, "compression.retry")).toHaveLength(0);
    expect(r.fallback).toBe(true);
  });

  it("treats an empty answer as a failure", async () => {
    const { deps } = setup(scriptedModel([textResult("  ")]));
    expect((await compressFindings(deps, directive, longHistory(), sources)).fallback).toBe(true);
  });

  it("lets an exhausted run budget and a cancellation through", async () => {
    const budget = new BudgetExceededError({ limit: "tokens", max: 10, used: 11 });
    const { deps } = setup(scriptedModel([budget]));
    await expect(compressFindings(deps, directive, longHistory(), sources)).rejects.toBe(budget);

    const controller = new AbortController();
    controller.abort(new Error("cancelled by user"));
    const cancelled = makeDeps({
      store: noStore,
      models: { compression: scriptedModel([textResult("never")]) },
      signal: controller.signal,
    });
    await expect(compressFindings(cancelled.deps, directive, longHistory(), sources)).rejects.toThrow(
      "cancelled by user",
    );
  });
});

describe("transcript fitting", () => {
  it("renders tool calls with what they asked and results with what they answered", () => {
    const entries = renderHistory(longHistory());
    const text = entries.map((e) => e.text).join("\n");
    expect(text).toContain('Search: "q-one"');
    expect(text).toContain('Results of search "q-one":\nRESULTS-ONE');
    expect(text).toContain("Read page: https://example.org/p1");
    expect(text).toContain("Content of https://example.org/p1:\nPAGE-ONE");
    expect(text).toContain("Reflection: THOUGHT-TWO");
    expect(text).not.toContain("Reflection recorded."); // acknowledgements carry nothing
  });

  it("protects the task, the last two reflections and the last search with its results", () => {
    const history = longHistory();
    const keep = protectedMessages(history);
    const describe = [...keep].sort((a, b) => a - b).map((i) => JSON.stringify(history[i]));
    expect(describe).toHaveLength(5);
    expect(describe[0]).toContain("Your assigned research topic");
    expect(describe[1]).toContain("q-two");
    expect(describe[2]).toContain("RESULTS-TWO");
    expect(describe[3]).toContain("THOUGHT-THREE");
    expect(describe[4]).toContain("THOUGHT-FOUR");
  });

  it("clips the longest kept entries when the protected ones alone exceed the budget", () => {
    const history = longHistory();
    const fit = fitTranscript(renderHistory(history), protectedMessages(history), 1_000);
    expect(fit.chars).toBeLessThanOrEqual(1_000);
    expect(fit.text.length).toBe(fit.chars);
    expect(fit.text).toContain("THOUGHT-FOUR");
    expect(fit.text).toContain("RESULTS-TWO");
    expect(fit.text).toContain("[… clipped to fit the budget …]");
  });

  it("shrinks by the provider's stated ratio, always by at least 30%", () => {
    expect(shrinkBudget(10_000, overflow())).toBe(Math.floor(10_000 * (8192 / 12000) * 0.8));
    expect(shrinkBudget(10_000, new ContextWindowError({ message: "too long" }))).toBe(5_000);
    expect(shrinkBudget(1_500, new ContextWindowError({ message: "too long" }))).toBe(1_000);
  });
});
