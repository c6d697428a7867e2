// Directives added at the same moment by the supervisor (the engine's store) and by people steering
// the run (the API) all get stored, with dense ordinals: on PostgreSQL these really run in parallel
// on separate connections, so two writers must never read the same max(ordinal).
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { DatabaseHandle } from "../db/client.ts";
import { createRun, updateRunStatus } from "../db/queries/runs.ts";
import { createDbRunStore } from "../db/research-store.ts";
import { createRunBus } from "../lib/jobs/bus.ts";
import type { Runtime } from "../lib/jobs/runtime.ts";
import { addUserDirective } from "../lib/server/runs/steer.ts";
import { testDatabases } from "./databases.ts";

const OWNER = "owner";
const SUBJECTS = ["solar panels", "wind turbines", "tidal power", "geothermal wells", "biogas plants"];

describe.each(testDatabases())("concurrent directive writers on $name", ({ open }) => {
  let h: DatabaseHandle;
  let rt: Runtime;
  beforeAll(async () => {
    h = await open();
    rt = { handle: h, bus: await createRunBus(h) };
  });
  afterAll(async () => {
    await rt?.bus.close();
    await h?.close();
  });

  it("stores every directive of the supervisor and of steering users, ordinals dense", async () => {
    const run = await createRun(h.db, { ownerId: OWNER, question: "Renewables?", settings: {} });
    await updateRunStatus(h.db, run.id, { status: "running", phase: "supervision" });
    const supervisor = SUBJECTS.map((s, i) =>
      createDbRunStore(h.db, run.id).addDirectives([
        { round: 1, topic: `Capacity factor of ${s} in northern Europe` },
        { round: 1, topic: `Maintenance schedule of ${s} over ${10 + i} years` },
      ]),
    );
    const users = SUBJECTS.map((s) =>
      addUserDirective(rt, run.id, OWNER, { topic: `Who finances ${s} in small towns`, priority: "high" }),
    );
    const settled = await Promise.allSettled([...supervisor, ...users]);
    expect(settled.filter((s) => s.status === "rejected")).toEqual([]);

    const stored = await createDbRunStore(h.db, run.id).listDirectives();
    expect(stored).toHaveLength(SUBJECTS.length * 3);
    expect(stored.map((d) => d.ordinal)).toEqual(stored.map((_, i) => i + 1));
    expect(stored.filter((d) => d.origin === "user")).toHaveLength(SUBJECTS.length);
  });
});
