// A fallback's record names the step, the model and the provider's own words, in one plain notice.
import { describe, expect, it } from "vitest";
import { apiError } from "../../test/support/ai-mocks.ts";
import { ContextWindowError } from "../ai/context-errors.ts";
import { ModelCallError } from "../ai/errors.ts";
import { StructuredOutputError } from "../ai/structured.ts";
import { describeDegradation } from "./degradations.ts";

const at = new Date("2026-11-26T10:00:00Z");
const refusal = apiError({
  status: 400,
  body: {
    error: {
      message: "Invalid schema for response_format 'citation_verdicts': 'maxLength' is not permitted.",
    },
  },
});

describe("describeDegradation", () => {
  it("a refused request: the model, the status and the provider's message", () => {
    const error = new ModelCallError({
      role: "summarization",
      model: "openai:gpt-5.1",
      attempts: 1,
      statusCode: 400,
      retryable: false,
      cause: refusal,
    });
    expect(describeDegradation({ step: "citation_check", error, at })).toEqual({
      step: "citation_check",
      round: null,
      model: "openai:gpt-5.1",
      error: "Invalid schema for response_format 'citation_verdicts': 'maxLength' is not permitted.",
      cause: { kind: "refused", status: 400 },
      notice:
        "Citations were not checked: openai:gpt-5.1 refused the request (HTTP 400) — Invalid schema for response_format 'citation_verdicts': 'maxLength' is not permitted.",
      at: "2026-11-26T10:00:00.000Z",
    });
  });

  it("says which round a coverage assessment fell back in, and how a call failed", () => {
    const error = new ModelCallError({
      role: "supervisor",
      model: "anthropic:claude-sonnet-4-5",
      attempts: 3,
      statusCode: 529,
      retryable: true,
      cause: new Error("Overloaded"),
    });
    const d = describeDegradation({ step: "coverage_assessment", round: 2, error, at });
    expect(d.notice).toBe(
      "Coverage after round 2 was judged by the heuristic: anthropic:claude-sonnet-4-5 failed (HTTP 529) after 3 attempts — Overloaded",
    );
    expect(d.cause).toEqual({ kind: "failed", status: 529, attempts: 3 });
  });

  it("an unusable answer, a context window, or an error without a model (the role's model is named)", () => {
    const unusable = new StructuredOutputError({
      role: "supervisor",
      model: "google:gemini-2.5-flash",
      attempts: 3,
      issues: "it did not match the schema",
    });
    const knowledge = describeDegradation({ step: "knowledge", error: unusable, at });
    expect(knowledge.notice).toBe(
      "No knowledge was extracted: google:gemini-2.5-flash gave no usable answer after 3 tries — it did not match the schema",
    );
    expect(knowledge.cause).toEqual({ kind: "unusable", attempts: 3 });
    const window = new ContextWindowError({
      message: "maximum context length",
      role: "supervisor",
      model: "openai:gpt-5.1",
    });
    expect(describeDegradation({ step: "planner", error: window, at }).notice).toMatch(
      /^The research plan fell back to a single directive: openai:gpt-5.1 could not take the input/,
    );
    const plain = describeDegradation({
      step: "knowledge",
      error: new Error("x".repeat(400)),
      model: "mock:supervisor",
      at,
    });
    expect(plain.model).toBe("mock:supervisor");
    expect(plain.error).toHaveLength(300);
  });
});
