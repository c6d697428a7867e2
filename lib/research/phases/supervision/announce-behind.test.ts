/**
 * The supervisor's announcements that come right before its next model call (the plan before the
 * critique, the critique before the revision, a round's thought before its assessment) are written
 * while that call is out (writes-behind.ts), in their place among the run's events.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { DatabaseHandle } from "../../../../db/client.ts";
import { gate } from "../../../../test/support/gate.ts";
import {
  assessment,
  critique,
  fakeExecutor,
  makeDeps,
  newRunStore,
  openEngineDb,
  plan,
  sourcesFor,
  supervisorModel,
} from "../../../../test/support/supervisor-harness.ts";
import type { EventSink } from "../../events.ts";
import { withWritesBehind } from "../../writes-behind.ts";
import { runSupervision } from "./supervise.ts";

const BRIEF = "How do air-source and ground-source heat pumps compare on running cost in cold climates?";
const AIR = "Air-source heat pump seasonal efficiency below -10 °C in measured field trials";
const GROUND = "Ground-source heat pump installation cost and payback in Nordic homes";
const MERGED = "Air-source and ground-source heat pumps: measured seasonal efficiency in cold climates";
const FOLLOW = "Electricity tariffs that change heat pump running costs in Finland and Sweden";

let handle: DatabaseHandle;
beforeAll(async () => {
  handle = await openEngineDb();
});
afterAll(async () => {
  await handle?.close();
});

/** Which model call releases each held announcement. */
const RELEASED_BY = {
  "supervision.first_round_generate": "critique",
  "supervision.first_round_critique": "revision",
  "supervision.think": "assessment",
} as const;
type Held = keyof typeof RELEASED_BY;

describe("the supervisor's announcements, written behind its next model call", () => {
  it("asks for the critique, the revision and the assessment before the event that precedes each is written", async () => {
    const log: string[] = [];
    const gates = new Map(Object.keys(RELEASED_BY).map((type) => [type, gate()]));
    const call = (kind: string) => {
      log.push(`${kind} call`);
      for (const [type, by] of Object.entries(RELEASED_BY)) if (by === kind) gates.get(type)?.open();
    };
    const m = supervisorModel({
      plan: () => plan("typical", [AIR, GROUND]),
      critique: () => {
        call("critique");
        return critique({ redundancy: "both directives measure efficiency" });
      },
      revision: () => {
        call("revision");
        return plan("typical", [MERGED, GROUND]);
      },
      think: () => "Tariffs are missing.",
      assessment: (_c, n) => {
        call("assessment");
        return n === 0
          ? assessment({ shouldContinue: true, followUps: [FOLLOW] })
          : assessment({ shouldContinue: false });
      },
    });
    const store = await newRunStore(handle);
    const t = makeDeps({ store, model: m.model, config: { maxSupervisionRounds: 1 } });
    // Each held event is written once its releasing call was made (or after 2 s: old code logs late).
    const inner = t.deps.events;
    const holding: EventSink = {
      async emit(e) {
        const held = gates.get(e.type);
        if (held) {
          await held.openedOrAfter();
          log.push(`${e.type as Held} written`);
        }
        return inner.emit(e);
      },
    };
    const exec = fakeExecutor(store, (d) => ({ sources: sourcesFor(`d${d.ordinal}`, 2) }));
    const deps = withWritesBehind({ ...t.deps, events: holding });
    await runSupervision(deps, { brief: BRIEF, executeDirective: exec.execute });
    await deps.behind?.flush();

    // Each was written after the call it precedes was made (awaited, it would be written before).
    for (const [type, by] of Object.entries(RELEASED_BY)) {
      expect(log).toContain(`${type} written`);
      expect(log.indexOf(`${by} call`)).toBeLessThan(log.indexOf(`${type} written`));
    }
    // Nothing moved: each stays where it was emitted among the run's events.
    const types = t.events.map((e) => e.type).filter((type) => type.startsWith("supervision."));
    expect(types).toEqual([
      "supervision.round_started",
      "supervision.first_round_generate",
      "supervision.first_round_critique",
      "supervision.first_round_revise",
      "supervision.first_round_decomposition",
      "supervision.round_completed",
      "supervision.round_started",
      "supervision.think",
      "supervision.assessment",
      "supervision.round_completed",
    ]);
    expect(exec.started.map((d) => d.topic)).toEqual([MERGED, GROUND, FOLLOW]);
  });
});
