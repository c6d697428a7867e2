/**
 * The supervisor's writes behind its next model call (writes-behind.ts), without changing what is
 * stored, the order of events, or what a resumed run does:
 * - a round's end (its decided record, round_completed, the next round's round_started);
 * - the announcements right before a call (the plan before the critique, the critique before the
 *   revision, a round's thought before its assessment).
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { DatabaseHandle } from "../../../../db/client.ts";
import { gate } from "../../../../test/support/gate.ts";
import {
  assessment,
  critique,
  eventsOf,
  fakeExecutor,
  makeDeps,
  newRunStore,
  openEngineDb,
  plan,
  sourcesFor,
  supervisorModel,
} from "../../../../test/support/supervisor-harness.ts";
import type { EventSink } from "../../events.ts";
import type { RunStore, SupervisionRoundRecord } from "../../store.ts";
import { withWritesBehind } from "../../writes-behind.ts";
import { runSupervision } from "./supervise.ts";

const BRIEF = "How do lithium-ion and sodium-ion home batteries compare on cost and cycle life in 2024?";
const LI = "Lithium-ion home storage batteries in 2024: installed cost per kWh and warranted cycle life";
const NA = "Sodium-ion batteries for residential storage: current cell prices and cycle life in field tests";
const FOLLOW = "Cycle life of CATL sodium-ion cells measured by independent laboratories since 2023";

let handle: DatabaseHandle;
beforeAll(async () => {
  handle = await openEngineDb();
});
afterAll(async () => {
  await handle?.close();
});

/** Round 0 plans two directives; round 1's assessment follows one up; round 2 stops. */
function model(onThink: () => void = () => {}) {
  return supervisorModel({
    plan: () => plan("comparison", [LI, NA], ["lithium-ion", "sodium-ion"]),
    critique: () => critique(),
    think: (_c, n) => {
      onThink();
      return `Gap analysis ${n + 1}: independent cycle tests are missing.`;
    },
    // By round, not by count: an attempt that fails may have asked already (writes-behind.ts).
    assessment: (c) =>
      c.request.startsWith("Supervision round 1.")
        ? assessment({ shouldContinue: true, followUps: [FOLLOW] })
        : assessment({ shouldContinue: false }),
  });
}

/** The store, with each decided round's save held until `release` (or 2 s, so old code cannot hang). */
function holdingDecidedRounds(store: RunStore, log: string[]) {
  const released = gate();
  const held: RunStore = Object.create(store);
  held.saveRound = async (r: SupervisionRoundRecord) => {
    if (r.decision !== null) {
      await released.openedOrAfter();
      log.push(`round ${r.round} decided (${r.decision}) stored`);
    }
    return store.saveRound(r);
  };
  return { store: held, release: released.open };
}

describe("a round's end, written behind the next round's first model call", () => {
  it("thinks about round 1 while round 0's end is being written, and the events keep their order", async () => {
    const log: string[] = [];
    const base = await newRunStore(handle);
    const holding = holdingDecidedRounds(base, log);
    const m = model(() => {
      log.push("think call");
      holding.release();
    });
    const t = makeDeps({ store: holding.store, model: m.model });
    const exec = fakeExecutor(holding.store, (d) => ({ sources: sourcesFor(`d${d.ordinal}`, 2) }));
    const deps = withWritesBehind(t.deps);
    const out = await runSupervision(deps, { brief: BRIEF, executeDirective: exec.execute });
    // The last round's end may still be on its way (the report's first call would be out now).
    await deps.behind?.flush();

    // The thought was asked for before round 0's decided record landed (it waited for the call).
    expect(log.slice(0, 2)).toEqual(["think call", "round 0 decided (continue) stored"]);
    expect(out).toMatchObject({ rounds: 3, stopReason: "coverage_sufficient" });
    expect((await base.listRounds()).map((r) => [r.round, r.decision, r.directivesExecuted])).toEqual([
      [0, "continue", 2],
      [1, "continue", 1],
      [2, "stop", 0],
    ]);
    // Each round's end comes before the next round's start, and that before its thought.
    const order = t.events
      .filter((e) =>
        ["supervision.round_completed", "supervision.round_started", "supervision.think"].includes(e.type),
      )
      .map((e) => `${e.type} ${"round" in e ? e.round : ""}`);
    expect(order).toEqual([
      "supervision.round_started 0",
      "supervision.round_completed 0",
      "supervision.round_started 1",
      "supervision.think 1",
      "supervision.round_completed 1",
      "supervision.round_started 2",
      "supervision.think 2",
      "supervision.round_completed 2",
    ]);
    // The memory built from the rows in hand is the stored one: round 0's decision and findings.
    const secondThink = m.of("think")[1];
    expect(secondThink.text).toContain("Round 0: my assessment and delegation");
    expect(secondThink.text).toContain("Round 1: my gap analysis");
    expect(secondThink.text).toContain(`#3 (low, done): ${FOLLOW}`);
  });

  it("hands the report the rows the last round read", async () => {
    const base = await newRunStore(handle);
    const m = model();
    const t = makeDeps({ store: base, model: m.model });
    const exec = fakeExecutor(base, (d) => ({ sources: sourcesFor(`d${d.ordinal}`, 2) }));
    const deps = withWritesBehind(t.deps);
    const out = await runSupervision(deps, { brief: BRIEF, executeDirective: exec.execute });
    await deps.behind?.flush();

    expect(out.gathered?.directives.map((d) => [d.topic, d.status])).toEqual([
      [LI, "done"],
      [NA, "done"],
      [FOLLOW, "done"],
    ]);
    expect(out.gathered?.results).toHaveLength(3);
    expect(out.gathered?.sources).toEqual(await base.listSources());
    const ids = out.gathered?.directives.map((d) => d.id) ?? [];
    expect(out.gathered?.sourcesByDirective).toEqual(await base.listSourcesOfDirectives(ids));
  });

  it("fails the attempt when a round's end cannot be written, and a resumed attempt decides the round again", async () => {
    const base = await newRunStore(handle);
    const failing: RunStore = Object.create(base);
    failing.saveRound = async (r: SupervisionRoundRecord) => {
      if (r.round === 0 && r.decision !== null) throw new Error("disk full");
      return base.saveRound(r);
    };
    const m = model();
    const first = makeDeps({ store: failing, model: m.model });
    const exec = fakeExecutor(base, (d) => ({ sources: sourcesFor(`d${d.ordinal}`, 2) }));
    await expect(
      runSupervision(withWritesBehind(first.deps), { brief: BRIEF, executeDirective: exec.execute }),
    ).rejects.toThrow("disk full");
    // Nothing after the failed write was stored: round 0 stands undecided, round 1 was not written.
    expect((await base.listRounds()).map((r) => [r.round, r.decision])).toEqual([[0, null]]);
    expect(eventsOf(first.events, "supervision.round_completed")).toHaveLength(0);

    const second = withWritesBehind(makeDeps({ store: base, model: m.model }).deps);
    const out = await runSupervision(second, { brief: BRIEF, executeDirective: exec.execute });
    await second.behind?.flush();
    expect(out.stopReason).toBe("coverage_sufficient");
    expect((await base.listRounds()).map((r) => [r.round, r.decision])).toEqual([
      [0, "continue"],
      [1, "continue"],
      [2, "stop"],
    ]);
    // Round 0's directives were not researched again.
    expect(exec.started.map((d) => d.topic)).toEqual([LI, NA, FOLLOW]);
  });
});

/** A second question for the announcements: its plan is critiqued and revised. */
const HEAT = {
  brief: "How do air-source and ground-source heat pumps compare on running cost in cold climates?",
  air: "Air-source heat pump seasonal efficiency below -10 °C in measured field trials",
  ground: "Ground-source heat pump installation cost and payback in Nordic homes",
  merged: "Air-source and ground-source heat pumps: measured seasonal efficiency in cold climates",
  follow: "Electricity tariffs that change heat pump running costs in Finland and Sweden",
};

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
      plan: () => plan("typical", [HEAT.air, HEAT.ground]),
      critique: () => {
        call("critique");
        return critique({ redundancy: "both directives measure efficiency" });
      },
      revision: () => {
        call("revision");
        return plan("typical", [HEAT.merged, HEAT.ground]);
      },
      think: () => "Tariffs are missing.",
      assessment: (_c, n) => {
        call("assessment");
        return n === 0
          ? assessment({ shouldContinue: true, followUps: [HEAT.follow] })
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
    await runSupervision(deps, { brief: HEAT.brief, executeDirective: exec.execute });
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
    expect(exec.started.map((d) => d.topic)).toEqual([HEAT.merged, HEAT.ground, HEAT.follow]);
  });
});
