import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { DatabaseHandle } from "../../../db/client.ts";
import {
  eventsOf,
  makeDeps,
  newRunStore,
  openEngineDb,
  supervisorModel,
} from "../../../test/support/supervisor-harness.ts";
import { BudgetExceededError } from "../../ai/usage.ts";
import type { KnowledgeItemRecord } from "../store.ts";
import { clarify, selectKnowledge, writeBrief } from "./brief.ts";

let handle: DatabaseHandle;
beforeAll(async () => {
  handle = await openEngineDb();
});
afterAll(async () => {
  await handle?.close();
});

const item = (
  id: string,
  content: string,
  category: KnowledgeItemRecord["category"] = "finding",
): KnowledgeItemRecord => ({
  id,
  category,
  content,
  sourceIds: [],
  confidence: 0.8,
  needsReview: false,
  status: "established",
  origin: "extracted",
});

describe("clarify", () => {
  it("asks the model's one question when the request is ambiguous", async () => {
    const m = supervisorModel({
      clarification: () => ({
        needs_clarification: true,
        question: "  Do you mean Java the island or Java the programming language? ",
        reason: "ambiguous name",
      }),
    });
    const { deps } = makeDeps({ store: await newRunStore(handle), model: m.model });
    expect(await clarify(deps, { question: "Tell me about Java" })).toEqual({
      needed: true,
      question: "Do you mean Java the island or Java the programming language?",
    });
    expect(m.of("clarification")[0].request).toContain("Tell me about Java");
    expect(m.of("clarification")[0].text).toContain("Most requests need no clarification");
  });

  it("is not needed when the model says so, gives an empty question, or cannot answer", async () => {
    const store = await newRunStore(handle);
    const answers = [
      { needs_clarification: false, question: "", reason: "clear" },
      { needs_clarification: true, question: "   ", reason: "?" },
    ];
    for (const a of answers) {
      const { deps } = makeDeps({ store, model: supervisorModel({ clarification: () => a }).model });
      expect(await clarify(deps, { question: "GDP of France in 2023" })).toEqual({ needed: false });
    }
    const broken = supervisorModel({ clarification: () => new Error("503 from provider") });
    const { deps } = makeDeps({ store, model: broken.model });
    expect(await clarify(deps, { question: "GDP of France in 2023" })).toEqual({ needed: false });
  });
});

describe("selectKnowledge", () => {
  const items = [
    item("a", "Sodium-ion cells reached 160 Wh/kg at the cell level in 2024"),
    item("b", "The Eiffel tower is 330 metres tall"),
    item("c", "Prefer regulator filings over press releases for incident counts", "lesson"),
    item("d", "Sodium-ion and lithium-ion cell prices per kWh converged for stationary storage"),
  ];

  it("keeps relevant findings (most overlap first) and general lessons, drops unrelated ones", () => {
    const chosen = selectKnowledge(
      items,
      "How do sodium-ion cell prices per kWh compare with lithium-ion?",
      1000,
    );
    expect(chosen.map((k) => k.id)).toEqual(["d", "a", "c"]);
  });

  it("stays within the token budget (≈4 chars a token)", () => {
    const chosen = selectKnowledge(items, "sodium-ion cell prices per kWh lithium-ion", 30); // 120 chars
    expect(chosen.map((k) => k.id)).toEqual(["d"]);
    expect(selectKnowledge(items, "sodium-ion", 0)).toEqual([]);
  });

  it("ignores items that are not established", () => {
    const provisional = { ...item("p", "Sodium-ion facts"), status: "provisional" as const };
    expect(selectKnowledge([provisional], "sodium-ion facts", 1000)).toEqual([]);
  });
});

describe("writeBrief", () => {
  it("writes a first-person brief in the question's language with relevant knowledge, saves and announces it", async () => {
    const brief =
      "Quiero entender cómo se comparan las baterías de sodio y de litio en precio por kWh en 2024.";
    const m = supervisorModel({ brief: () => `  ${brief}\n` });
    const store = await newRunStore(handle, "¿Sodio o litio para almacenamiento doméstico?");
    const { deps, events } = makeDeps({ store, model: m.model });
    const knowledge = [
      item("k1", "Sodio: celdas de sodio a 160 Wh/kg en 2024"),
      item("k2", "Unrelated: the Eiffel tower is 330 metres tall"),
    ];
    const out = await writeBrief(deps, {
      question: "¿Sodio o litio para almacenamiento doméstico?",
      clarificationAnswer: "Para una casa en España",
      knowledge,
    });

    expect(out).toBe(brief);
    expect((await store.getRun()).brief).toBe(brief);
    expect(eventsOf(events, "brief.created")).toEqual([{ type: "brief.created", brief, knowledgeItems: 1 }]);
    const call = m.of("brief")[0];
    expect(call.text).toContain('first person, as the person asking: "I want to understand…"');
    expect(call.text).toContain("same language as the request");
    expect(call.request).toContain("¿Sodio o litio para almacenamiento doméstico?");
    expect(call.request).toContain("Para una casa en España");
    expect(call.request).toMatch(
      /<established_knowledge>\n- \(finding, confidence 0\.80\) Sodio: celdas de sodio/,
    );
    expect(call.request).not.toContain("Eiffel");
  });

  it("falls back to the question itself when the model fails, and says so", async () => {
    const m = supervisorModel({ brief: () => new Error("provider returned 500") });
    const store = await newRunStore(handle);
    const { deps, events } = makeDeps({ store, model: m.model });
    const out = await writeBrief(deps, { question: "Wie hoch ist der Eiffelturm?", knowledge: [] });
    expect(out).toBe("Wie hoch ist der Eiffelturm?");
    expect((await store.getRun()).brief).toBe(out);
    const ev = eventsOf(events, "brief.created")[0];
    expect(ev).toMatchObject({ fallback: true, brief: out, knowledgeItems: 0 });
    expect(ev.reason).toContain("provider returned 500");
  });

  it("falls back on an empty answer, keeping the clarification", async () => {
    const m = supervisorModel({ brief: () => "   " });
    const { deps, events } = makeDeps({ store: await newRunStore(handle), model: m.model });
    const out = await writeBrief(deps, {
      question: "Java?",
      clarificationAnswer: "the language",
      knowledge: [],
    });
    expect(out).toBe("Java?\n\nthe language");
    expect(eventsOf(events, "brief.created")[0].reason).toContain("empty brief");
  });

  it("lets an exhausted budget and cancellation through", async () => {
    const budget = supervisorModel({
      brief: () => new BudgetExceededError({ limit: "cost", max: 1, used: 1.2 }),
    });
    const a = makeDeps({ store: await newRunStore(handle), model: budget.model });
    await expect(writeBrief(a.deps, { question: "q", knowledge: [] })).rejects.toBeInstanceOf(
      BudgetExceededError,
    );

    const controller = new AbortController();
    controller.abort(new DOMException("cancelled by user", "AbortError"));
    const b = makeDeps({
      store: await newRunStore(handle),
      model: supervisorModel({ brief: () => "never" }).model,
      signal: controller.signal,
    });
    await expect(writeBrief(b.deps, { question: "q", knowledge: [] })).rejects.toThrow("cancelled by user");
    expect(b.events).toHaveLength(0);
  });
});
