/**
 * Steering a run as its owner: a directive added while it researches (POST /api/runs/:id/directives,
 * the run page's form, the MCP add_directive tool). Refused (409) once the run writes its report, and
 * for a directive it already has. The directive and its event are one transaction; the event is
 * announced after COMMIT with the seq it was written with.
 */
import type { Db } from "../../../db/client.ts";
import { getRun, lockRunRow } from "../../../db/queries/runs.ts";
import { createDbRunStore } from "../../../db/research-store.ts";
import { type Run, terminalRunStatuses } from "../../../db/schema.ts";
import { AppError } from "../../errors.ts";
import { type EventLog, withEventTransaction } from "../../jobs/event-sink.ts";
import type { Runtime } from "../../jobs/runtime.ts";
import { directiveCreatedEvent, findNearDuplicate } from "../../research/index.ts";
import type { DirectivePriority } from "../../research/ui.ts";
import { ownedRun } from "./owned.ts";

/** Research has ended once the report is being written (or was asked for): steering no longer applies. */
function researchEnded(run: Run): boolean {
  return (
    Boolean(run.finishRequestedAt) ||
    run.phase === "synthesis" ||
    run.phase === "knowledge" ||
    run.phase === "done"
  );
}

export async function addUserDirective(
  rt: Runtime,
  id: string,
  ownerId: string,
  input: { topic: string; priority: DirectivePriority },
): Promise<{ id: string }> {
  const db = rt.handle.db;
  const run = await ownedRun(db, id, ownerId);
  if (terminalRunStatuses.includes(run.status)) {
    throw new AppError("conflict", `The run has already ended (${run.status}); it cannot be steered.`);
  }
  const directive = await withEventTransaction(db, rt.bus, async (tx, events) => {
    // Hold the run while checking its phase and duplicates: the engine's move to the report waits
    // for this transaction, and sweeps up a directive committed before it (skipLeftovers).
    await lockRunRow(tx, id);
    const current = await getRun(tx, id);
    if (current && researchEnded(current)) {
      throw new AppError(
        "conflict",
        "The run is writing its report; it can no longer be steered. Start a new run to research more.",
      );
    }
    return insertUserDirective(tx, events, id, input);
  });
  return { id: directive.id };
}

/**
 * Stores one directive of the run's owner and its event, in the caller's transaction (the run row
 * locked): refused (409) when the run already has it or one that says nearly the same, the same
 * rule the supervisor applies to its own follow-ups.
 */
export async function insertUserDirective(
  tx: Db,
  events: EventLog,
  id: string,
  input: { topic: string; priority: DirectivePriority },
  rationale = "Requested by the run's owner while it ran.",
): Promise<{ id: string }> {
  const store = createDbRunStore(tx, id);
  const near = findNearDuplicate(input.topic, await store.listDirectives());
  if (near) {
    throw new AppError("conflict", "The run already has a directive that says nearly the same.", {
      details: { duplicateOf: near.id, similarity: Number(near.similarity.toFixed(2)) },
    });
  }
  const round = (await store.listRounds()).length;
  const { created, duplicates } = await store.addDirectives([
    { round, topic: input.topic, priority: input.priority, origin: "user", type: "user", rationale },
  ]);
  const d = created[0];
  if (!d) {
    throw new AppError("conflict", "The run already has this directive.", {
      details: { duplicateOf: duplicates[0]?.duplicateOf },
    });
  }
  await events.append(id, directiveCreatedEvent(d));
  return d;
}
