import { describe, expect, it } from "vitest";
import { directivePriorities } from "../../research/vocabulary.ts";
import {
  approvePlanRequestSchema,
  clarificationAnswerSchema,
  directiveRequestSchema,
  planFormAdditionSchema,
  planRequestFromForm,
  skipClarificationAnswer,
  steerRequestSchema,
} from "./steer-input.ts";

describe("directive requests use the engine's one priority list", () => {
  it("steering accepts every priority of the vocabulary and defaults to normal", () => {
    for (const priority of directivePriorities) {
      expect(steerRequestSchema.parse({ topic: "Grid tariffs for heat pumps", priority }).priority).toBe(
        priority,
      );
    }
    expect(steerRequestSchema.parse({ topic: "Grid tariffs for heat pumps" }).priority).toBe("normal");
  });

  it("refuses a priority outside the vocabulary, in steering and in plan edits", () => {
    expect(
      directiveRequestSchema.safeParse({ topic: "Grid tariffs for heat pumps", priority: "urgent" }).success,
    ).toBe(false);
    const edit = { id: "00000000-0000-4000-8000-000000000000", priority: "urgent" };
    expect(directiveRequestSchema.safeParse({ approvePlan: true, edits: [edit] }).success).toBe(false);
    expect(
      directiveRequestSchema.safeParse({ approvePlan: true, edits: [{ ...edit, priority: "high" }] }).success,
    ).toBe(true);
  });
});

describe("the plan review form becomes an approve-plan request", () => {
  const a = "00000000-0000-4000-8000-00000000000a";
  const b = "00000000-0000-4000-8000-00000000000b";
  const base = {
    directive: [a, b],
    [`original-topic.${a}`]: "Heat pump efficiency in cold climates",
    [`original-priority.${a}`]: "high",
    [`original-topic.${b}`]: "Running costs of gas boilers",
    [`original-priority.${b}`]: "normal",
    [`topic.${a}`]: "Heat pump efficiency in cold climates",
    [`priority.${a}`]: "high",
    [`topic.${b}`]: "Running costs of gas boilers",
    [`priority.${b}`]: "normal",
  };

  it("sends no edit for an untouched plan and no addition for an empty new topic", () => {
    const { request, add } = planRequestFromForm({ ...base, newTopic: " ", newPriority: "low" });
    expect(approvePlanRequestSchema.parse(request)).toEqual({ approvePlan: true, edits: [], add: [] });
    expect(add).toBeNull();
  });

  it("turns a reworded topic, a new priority, a removal and a new topic into edits and an addition", () => {
    const { request, add } = planRequestFromForm({
      ...base,
      [`topic.${a}`]: "  Heat pump COP below -15 °C  ",
      [`priority.${b}`]: "critical",
      remove: b,
      newTopic: "Noise of outdoor units in dense streets",
      newPriority: "low",
    });
    expect(approvePlanRequestSchema.parse(request).edits).toEqual([
      { id: a, topic: "Heat pump COP below -15 °C" },
      { id: b, drop: true, priority: "critical" },
    ]);
    expect(planFormAdditionSchema.parse(add)).toEqual({
      topic: "Noise of outdoor units in dense streets",
      priority: "low",
    });
  });

  it("refuses a topic emptied in the form and a priority outside the list", () => {
    const emptied = planRequestFromForm({ ...base, [`topic.${a}`]: "" });
    expect(approvePlanRequestSchema.safeParse(emptied.request).success).toBe(false);
    const odd = planRequestFromForm({ ...base, newTopic: "A topic of my own", newPriority: "urgent" });
    expect(planFormAdditionSchema.safeParse(odd.add).success).toBe(false);
  });

  it("answers with a clear message when the clarification answer is blank", () => {
    const r = clarificationAnswerSchema.safeParse({ answer: "   " });
    expect(r.success).toBe(false);
    expect(r.error?.issues[0]?.message).toMatch(/Skip/);
    expect(clarificationAnswerSchema.parse({ answer: skipClarificationAnswer }).answer).toMatch(
      /No preference/,
    );
  });
});
