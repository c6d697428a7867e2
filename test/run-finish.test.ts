// "Stop and write the report now" and late steering, as the API's run actions do them: the owner's
// finish flags a researching run and wakes its worker; every other state is refused with 409 and
// changes nothing; steering is refused once the report is being written.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { DatabaseHandle } from "../db/client.ts";
import { listEventsAfter } from "../db/queries/events.ts";
import { createRun, getRun, updateRunStatus } from "../db/queries/runs.ts";
import { createDbRunStore } from "../db/research-store.ts";
import type { RunStatus } from "../db/schema.ts";
import type { BusMessage } from "../lib/jobs/bus.ts";
import type { Runtime } from "../lib/jobs/runtime.ts";
import type { RunPhase } from "../lib/research/vocabulary.ts";
import { finishRunNow } from "../lib/server/runs/finish.ts";
import { addUserDirective } from "../lib/server/runs/steer.ts";
import { closeActionRuntime, openActionRuntime } from "./support/action-runtime.ts";

let h: DatabaseHandle;
let rt: Runtime;
beforeAll(async () => {
  ({ h, rt } = await openActionRuntime());
}, 60_000);
afterAll(() => closeActionRuntime(h));

const OWNER = "owner";

async function runIn(status: RunStatus, phase: RunPhase | null) {
  const run = await createRun(h.db, { ownerId: OWNER, question: "Heat pumps?", settings: {} });
  await updateRunStatus(h.db, run.id, { status, phase });
  return run;
}

function listen(runId: string) {
  const messages: BusMessage[] = [];
  const stop = rt.bus.subscribe(runId, (m) => messages.push(m));
  return { messages, stop };
}

describe("finishRunNow", () => {
  it("flags a researching run and tells its worker, writing no event itself", async () => {
    const run = await runIn("running", "supervision");
    const l = listen(run.id);
    expect(await finishRunNow(rt, run.id, OWNER)).toEqual({ status: "finishing" });
    l.stop();
    expect(l.messages).toEqual([{ kind: "finish", runId: run.id }]);
    expect((await getRun(h.db, run.id))?.finishRequestedAt).toBeInstanceOf(Date);
    expect(await listEventsAfter(h.db, run.id, 0)).toEqual([]);
    // Asked twice: the second is told the report is already being written.
    await expect(finishRunNow(rt, run.id, OWNER)).rejects.toMatchObject({
      code: "conflict",
      message: expect.stringMatching(/already writing its report/),
    });
  });

  it("refuses with 409 (changing nothing) when there is nothing to stop", async () => {
    const cases: [RunStatus, RunPhase | null, RegExp][] = [
      ["queued", null, /not researching yet/],
      ["running", "brief", /not researching yet/],
      ["awaiting_plan_review", "supervision", /not researching yet/],
      ["awaiting_clarification", "clarification", /not researching yet/],
      ["running", "synthesis", /already writing its report/],
      ["completed", "done", /already ended/],
      ["cancelled", "supervision", /already ended/],
    ];
    for (const [status, phase, message] of cases) {
      const run = await runIn(status, phase);
      await expect(finishRunNow(rt, run.id, OWNER), `${status}/${phase}`).rejects.toMatchObject({
        code: "conflict",
        message: expect.stringMatching(message),
      });
      expect((await getRun(h.db, run.id))?.finishRequestedAt).toBeNull();
    }
  });

  it("another owner's run is not found", async () => {
    const run = await runIn("running", "supervision");
    await expect(finishRunNow(rt, run.id, "someone-else")).rejects.toMatchObject({ code: "not_found" });
    expect((await getRun(h.db, run.id))?.finishRequestedAt).toBeNull();
  });
});

describe("steering once the report is being written", () => {
  const topic = { topic: "Noise levels of outdoor heat pump units at night", priority: "high" as const };

  it("is refused with 409 in synthesis and after the owner asked for the report, adding nothing", async () => {
    const writing = await runIn("running", "synthesis");
    const asked = await runIn("running", "supervision");
    await finishRunNow(rt, asked.id, OWNER);
    for (const run of [writing, asked]) {
      await expect(addUserDirective(rt, run.id, OWNER, topic)).rejects.toMatchObject({
        code: "conflict",
        message: expect.stringMatching(/can no longer be steered/),
      });
      expect(await createDbRunStore(h.db, run.id).listDirectives()).toEqual([]);
      expect(await listEventsAfter(h.db, run.id, 0)).toEqual([]);
    }
  });

  it("is accepted while the run researches", async () => {
    const run = await runIn("running", "supervision");
    const { id } = await addUserDirective(rt, run.id, OWNER, topic);
    expect((await createDbRunStore(h.db, run.id).listDirectives()).map((d) => d.id)).toEqual([id]);
  });
});
