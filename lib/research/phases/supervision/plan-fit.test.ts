import { describe, expect, it } from "vitest";
import type { DirectiveDraft } from "../../prompts/supervisor.ts";
import { fitPlanShape } from "./plan-fit.ts";

const d = (
  topic: string,
  priority: DirectiveDraft["priority"] = "normal",
  evidence = "",
): DirectiveDraft => ({
  topic,
  perspective: "",
  evidence_needed: evidence,
  priority,
});
const ELEMENTS = ["PostgreSQL", "MySQL", "SQLite"];

describe("fitPlanShape", () => {
  it("patterns a missing element on a sibling's directive", () => {
    const fit = fitPlanShape(
      {
        question_kind: "comparison",
        compared_elements: ELEMENTS,
        directives: [d("PostgreSQL write throughput on NVMe", "high", "PostgreSQL benchmarks")],
      },
      5,
    );
    expect(fit.drafts.map((x) => x.topic)).toEqual([
      "PostgreSQL write throughput on NVMe",
      "MySQL write throughput on NVMe",
      "SQLite write throughput on NVMe",
    ]);
    expect(fit.drafts[2]).toMatchObject({ evidence_needed: "SQLite benchmarks", priority: "high" });
    expect(fit.stats).toEqual({
      complexity: "comparison",
      before: 1,
      after: 3,
      added: 2,
      removed: 0,
      merged: 0,
    });
  });

  it("merges two drafts about one element and folds a general aspect into every element", () => {
    const fit = fitPlanShape(
      {
        question_kind: "comparison",
        compared_elements: [...ELEMENTS, "postgresql "],
        directives: [
          d("PostgreSQL write throughput", "normal", "benchmarks"),
          d("PostgreSQL replication options", "critical", "docs"),
          d("MySQL write throughput"),
          d("SQLite write throughput"),
          d("Licensing terms for commercial embedding", "low"),
        ],
      },
      5,
    );
    expect(fit.drafts).toHaveLength(3);
    expect(fit.drafts[0].priority).toBe("critical");
    expect(fit.drafts[0].evidence_needed).toContain("PostgreSQL replication options: docs");
    for (const x of fit.drafts) expect(x.evidence_needed).toContain("Also cover: Licensing terms");
    expect(fit.stats).toMatchObject({ before: 5, after: 3, added: 0, merged: 2 });
  });

  it("keeps one directive for a simple factual question, the most urgent", () => {
    const fit = fitPlanShape(
      { question_kind: "simple_factual", compared_elements: [], directives: [d("a", "low"), d("b", "high")] },
      5,
    );
    expect(fit.drafts.map((x) => x.topic)).toEqual(["b"]);
    expect(fit.stats).toMatchObject({ complexity: "simple_factual", before: 2, after: 1, removed: 1 });
  });

  it("treats a comparison with fewer than two elements as a typical question", () => {
    const fit = fitPlanShape(
      { question_kind: "comparison", compared_elements: ["only one"], directives: [d("a"), d("b"), d("c")] },
      2,
    );
    expect(fit.stats).toMatchObject({ complexity: "typical", after: 2, removed: 1 });
  });
});
