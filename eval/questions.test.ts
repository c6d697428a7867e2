import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { loadQuestionSet } from "./questions.ts";

const write = (value: unknown) => {
  const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), "dr-eval-q-")), "set.json");
  fs.writeFileSync(file, JSON.stringify(value));
  return file;
};

describe("question sets", () => {
  it("the shipped default set loads: three questions with distinct ids", () => {
    const set = loadQuestionSet(path.join(import.meta.dirname, "questions.json"));
    expect(set.questions).toHaveLength(3);
    expect(new Set(set.questions.map((q) => q.id)).size).toBe(3);
  });

  it("rejects unknown run settings, a missing question and a repeated id", () => {
    expect(() =>
      loadQuestionSet(write({ settings: { maxRounds: 2 }, questions: [{ id: "a", question: "q?" }] })),
    ).toThrow(/not a question set/);
    expect(() => loadQuestionSet(write({ questions: [{ id: "a" }] }))).toThrow(/not a question set/);
    expect(() =>
      loadQuestionSet(
        write({
          questions: [
            { id: "a", question: "q?" },
            { id: "a", question: "r?" },
          ],
        }),
      ),
    ).toThrow(/"a" is used twice/);
  });

  it("keeps per-question run settings", () => {
    const set = loadQuestionSet(
      write({
        settings: { maxSupervisionRounds: 1 },
        questions: [{ id: "a", question: "q?", settings: { clarification: false } }],
      }),
    );
    expect(set.settings).toEqual({ maxSupervisionRounds: 1 });
    expect(set.questions[0].settings).toEqual({ clarification: false });
  });
});
