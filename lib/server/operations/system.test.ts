import { describe, expect, it } from "vitest";
import { failureSummary, operatorBecause } from "./system.ts";

describe("failureSummary: a failure reason as an admin sees it", () => {
  it("keeps the kind and place of the failure and leaves out the provider's text, which may quote the run", () => {
    const question = "Should I answer my landlord's letter?";
    const error =
      'The run failed: synthesis model openai-compatible:scripted-model failed (HTTP 500): scripted-llm: no scripted reply for request: user="Research question: Should I answer my landlord\'s letter? Research brief: …"';
    const summary = failureSummary(error, question) as string;
    expect(summary).toBe(
      "The run failed: synthesis model openai-compatible:scripted-model failed (HTTP 500) (the details are on the run's page, for its owner)",
    );
    expect(summary).not.toContain("landlord");
  });

  it("keeps of a coded reason the provider's words only up to their first clause, without the question", () => {
    const question = "Heat pumps in frost?";
    const said = `synthesis model x failed (HTTP 500): upstream said "${question}" was too long`;
    expect(operatorBecause({ code: "run_error", values: { said } }, question)).toEqual({
      because: { code: "run_error", values: { said: "synthesis model x failed (HTTP 500)" } },
      cut: true,
    });
    const timeout = { code: "run_time_limit" as const, values: { seconds: 60 } };
    expect(operatorBecause(timeout, question)).toEqual({ because: timeout, cut: false });
    expect(operatorBecause(null, question)).toEqual({ because: null, cut: false });
  });

  it("keeps short reasons as they are, takes the question out, and bounds the length", () => {
    expect(failureSummary("The model provider refused the key (401).", "q?")).toBe(
      "The model provider refused the key (401).",
    );
    expect(failureSummary(null, "q?")).toBeNull();
    expect(failureSummary("The run failed: could not plan Heat pumps in frost", "Heat pumps in frost")).toBe(
      "The run failed: could not plan [the question]",
    );
    expect(failureSummary(`The run failed: ${"x".repeat(500)}`, "q")?.length).toBe(240);
  });
});
