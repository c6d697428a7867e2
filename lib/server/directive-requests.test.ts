import { describe, expect, it } from "vitest";
import { directivePriorities } from "../research/vocabulary.ts";
import { directiveRequestSchema, steerRequestSchema } from "./directive-requests.ts";

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
