import { describe, expect, it } from "vitest";
import {
  answerClarificationAction,
  approvePlanAction,
  cancelRunAction,
  finishRunAction,
  runAgainAction,
  steerAction,
} from "./run-control.ts";

const idle = { status: "idle" } as const;

function form(fields: Record<string, string>): FormData {
  const f = new FormData();
  for (const [k, v] of Object.entries(fields)) f.append(k, v);
  return f;
}

describe("run control actions", () => {
  const actions = {
    answerClarificationAction,
    approvePlanAction,
    cancelRunAction,
    finishRunAction,
    runAgainAction,
    steerAction,
  };

  // The run id is checked before anything else: a forged or missing one names no run at all.
  for (const [name, action] of Object.entries(actions)) {
    it(`${name} answers a run id that is not a UUID with not_found`, async () => {
      for (const runId of ["not-a-uuid", "../runs", ""]) {
        const state = await action(idle, form({ runId, topic: "Grid tariffs for heat pumps", answer: "x" }));
        expect(state).toEqual({ status: "error", code: "not_found", message: "No such run." });
      }
      expect(await action(idle, form({}))).toMatchObject({ status: "error", code: "not_found" });
    });
  }

  // The form is validated before the caller is looked up: these never reach the database.
  const runId = "00000000-0000-4000-8000-000000000001";
  it("refuses a too-short steering topic and an unknown priority, naming the field", async () => {
    const short = await steerAction(idle, form({ runId, topic: "x", priority: "normal" }));
    expect(short).toMatchObject({ status: "error", code: "validation_failed" });
    expect(short.status === "error" && short.fieldErrors?.topic).toBeTruthy();
    const odd = await steerAction(
      idle,
      form({ runId, topic: "Grid tariffs for heat pumps", priority: "urgent" }),
    );
    expect(odd.status === "error" && odd.fieldErrors?.priority).toBeTruthy();
  });

  it("asks for an answer when the clarification is blank, unless it was skipped", async () => {
    const blank = await answerClarificationAction(idle, form({ runId, intent: "answer", answer: "  " }));
    expect(blank).toMatchObject({ status: "error", code: "validation_failed" });
    expect(blank.status === "error" && blank.fieldErrors?.answer).toEqual([
      "write an answer, or choose Skip",
    ]);
  });

  it("refuses a plan whose edited topic was emptied", async () => {
    const id = "00000000-0000-4000-8000-00000000000a";
    const state = await approvePlanAction(
      idle,
      form({ runId, directive: id, [`topic.${id}`]: "", [`original-topic.${id}`]: "Heat pump efficiency" }),
    );
    expect(state).toMatchObject({ status: "error", code: "validation_failed" });
  });
});
