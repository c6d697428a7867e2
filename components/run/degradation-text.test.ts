import { createTranslator } from "next-intl";
import { describe, expect, it } from "vitest";
import { ContextWindowError } from "@/lib/ai/context-errors";
import { ModelCallError } from "@/lib/ai/errors";
import { StructuredOutputError } from "@/lib/ai/structured";
import { describeDegradation } from "@/lib/research/degradations";
import de from "../../messages/de.json";
import en from "../../messages/en.json";
import zh from "../../messages/zh.json";
import { degradationText } from "./degradation-text";
import type { Translate } from "./run-words";

const translator = (locale: "en" | "de" | "zh", messages: object) =>
  createTranslator({ locale, messages: messages as typeof en }) as unknown as Translate;
const at = new Date("2026-11-27T10:00:00Z");

const failures = [
  describeDegradation({
    step: "citation_check",
    error: new ModelCallError({
      role: "summarization",
      model: "openai:gpt-5.1",
      attempts: 1,
      statusCode: 400,
      retryable: false,
      cause: new Error("Invalid schema."),
    }),
    at,
  }),
  describeDegradation({
    step: "coverage_assessment",
    round: 2,
    error: new ModelCallError({
      role: "supervisor",
      model: "anthropic:claude-sonnet-4-5",
      attempts: 3,
      statusCode: 529,
      retryable: true,
      cause: new Error("Overloaded"),
    }),
    at,
  }),
  describeDegradation({
    step: "knowledge",
    error: new StructuredOutputError({
      role: "supervisor",
      model: "google:gemini-2.5-flash",
      attempts: 3,
      issues: "no match",
    }),
    at,
  }),
  describeDegradation({
    step: "planner",
    error: new ContextWindowError({ message: "too long", role: "supervisor", model: "openai:gpt-5.1" }),
    at,
  }),
  describeDegradation({ step: "knowledge", error: new Error(""), at }),
];

describe("a fallback said in the page's language", () => {
  it("reads in English exactly as the stored sentence the API gives", () => {
    const t = translator("en", en);
    for (const d of failures) expect(degradationText(t, d)).toBe(d.notice);
  });

  it("is German and Chinese from its parts, keeping the model and the provider's own words", () => {
    const [check, coverage] = failures;
    expect(degradationText(translator("de", de), check)).toBe(
      "Die Quellenangaben wurden nicht geprüft: openai:gpt-5.1 lehnte die Anfrage ab (HTTP 400) — Invalid schema.",
    );
    expect(degradationText(translator("de", de), coverage)).toBe(
      "Die Abdeckung nach Runde 2 wurde heuristisch beurteilt: anthropic:claude-sonnet-4-5 schlug fehl (HTTP 529), nach 3 Versuchen — Overloaded",
    );
    expect(degradationText(translator("zh", zh), check)).toBe(
      "引用未经核查：openai:gpt-5.1 拒绝了请求（HTTP 400） — Invalid schema.",
    );
  });

  it("shows a record from before its cause was kept by its stored sentence", () => {
    const { cause: _cause, ...old } = failures[0];
    expect(degradationText(translator("de", de), old)).toBe(old.notice);
  });
});
