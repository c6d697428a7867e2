// The checks the model-facing schemas cannot carry happen after parsing: each schema repairs a
// slightly-off answer (what a length, numeric or item-count keyword would have refused) and refuses
// only an unusable one.
import { describe, expect, it } from "vitest";
import { clamp, cutText } from "./model-output.ts";
import { modelTools, structuredOutputSchemas as s } from "./model-schemas.ts";
import { MAX_KNOWLEDGE_CONTENT, MAX_KNOWLEDGE_ITEMS } from "./prompts/knowledge.ts";

const draft = (topic: string) => ({
  title: topic,
  topic,
  perspective: "",
  evidence_needed: "",
  priority: "normal",
});

describe("repairs after parsing", () => {
  it("cutText trims and cuts with an ellipsis; clamp bounds a number", () => {
    expect(cutText("  short  ", 10)).toBe("short");
    expect(cutText("abcdefghij", 10)).toBe("abcdefghij");
    expect(cutText("abcdefghijk", 5)).toBe("abcd…");
    expect([clamp(-1, 0, 1), clamp(0.4, 0, 1), clamp(3, 0, 1)]).toEqual([0, 0.4, 1]);
  });

  it("directive plan: blank topics and compared elements dropped, topics trimmed; none left is refused", () => {
    const plan = s.directive_plan.parse({
      question_kind: "comparison",
      compared_elements: ["A", " ", "B "],
      directives: [draft("  Costs of A "), draft(""), draft("   "), draft("Costs of B")],
    });
    expect(plan.compared_elements).toEqual(["A", "B"]);
    expect(plan.directives.map((d) => d.topic)).toEqual(["Costs of A", "Costs of B"]);
    const empty = s.directive_plan.safeParse({
      question_kind: "typical",
      compared_elements: [],
      directives: [draft(" ")],
    });
    expect(empty.success).toBe(false);
    expect(empty.error?.message).toContain("at least one directive with a topic");
  });

  it("coverage assessment: coverage clamped, directive numbers rounded, blank follow-ups dropped", () => {
    const followUp = (topic: string) => ({ ...draft(topic), gap: "no data" });
    const a = s.coverage_assessment.parse({
      overall_coverage: 1.4,
      directive_assessments: [{ directive: 2.0000001, status: "gap", note: "" }],
      follow_up_queries: [followUp(""), followUp(" Prices in 2025 ")],
      should_continue: true,
      rationale: "gaps remain",
    });
    expect(a.overall_coverage).toBe(1);
    expect(a.directive_assessments[0].directive).toBe(2);
    expect(a.follow_up_queries.map((f) => f.topic)).toEqual(["Prices in 2025"]);
    expect(s.coverage_assessment.parse({ ...a, overall_coverage: -0.3 }).overall_coverage).toBe(0);
  });

  it("citation verdicts: ids rounded, a long reason cut, a blank one empty", () => {
    const v = s.citation_verdicts.parse({
      verdicts: [
        { id: 3.0, verdict: "supported", reason: "x".repeat(800) },
        { id: 4.4, verdict: "unsupported", reason: "   " },
      ],
    });
    expect(v.verdicts.map((x) => x.id)).toEqual([3, 4]);
    expect(v.verdicts[0].reason).toHaveLength(500);
    expect(v.verdicts[1].reason).toBe("");
    // "unchecked" is ours, never the model's.
    expect(
      s.citation_verdicts.safeParse({ verdicts: [{ id: 1, verdict: "unchecked", reason: "" }] }).success,
    ).toBe(false);
  });

  it("knowledge items: content cut, source numbers rounded, confidence clamped, empty and surplus items dropped", () => {
    const item = (content: string) => ({
      category: "finding",
      content,
      sources: [1.0, 2.4],
      confidence: 7,
      needs_review: false,
    });
    const k = s.knowledge_items.parse({
      items: [item("y".repeat(900)), item("  "), ...Array.from({ length: 20 }, (_, i) => item(`fact ${i}`))],
    });
    expect(k.items).toHaveLength(MAX_KNOWLEDGE_ITEMS);
    expect(k.items[0].content).toHaveLength(MAX_KNOWLEDGE_CONTENT);
    expect(k.items[0].sources).toEqual([1, 2]);
    expect(k.items[0].confidence).toBe(1);
    expect(k.items[1].content).toBe("fact 0");
  });

  it("researcher tools: strict, and a blank argument is refused", async () => {
    for (const t of Object.values(modelTools)) expect(t.strict).toBe(true);
    const { inputSchema } = modelTools.web_search;
    const parse = (v: unknown) =>
      (inputSchema as unknown as { safeParse(v: unknown): { success: boolean } }).safeParse(v);
    expect(parse({ query: "heat pump prices" }).success).toBe(true);
    expect(parse({ query: "  " }).success).toBe(false);
  });
});
