/**
 * follow_research: waits on one run and reports each new event worth telling a person (phase
 * changes, directives, sources, coverage, the end) as it is stored, until the run ends, stops to
 * wait for its owner, or the time is up. Rows are the truth; the bus only wakes the wait early.
 */
import { listEventsAfter } from "../../../db/queries/events.ts";
import { type RunEvent, terminalRunStatuses } from "../../../db/schema.ts";
import { type Env, envNumber } from "../../env.ts";
import type { Runtime } from "../../jobs/runtime.ts";
import { type ResearchEventType, terminalEventTypes } from "../../research/ui.ts";
import { takeStreamSlot } from "../stream-slots.ts";
import { ownedRun } from "./owned.ts";

/** MCP_FOLLOW_SECONDS: how long one follow_research call waits (clients time requests out at ~60 s). */
export function followSeconds(env: Env = process.env): number {
  return envNumber(env, "MCP_FOLLOW_SECONDS", 50, { min: 1, max: 300 });
}

// The bus wakes the wait at once; polling is only the backstop for a missed wake-up.
const POLL_MS = 2000;

/** A person-readable line for the events a follower cares about; null for the rest. */
export function describeEvent(e: RunEvent): string | null {
  const p = e.payload as Record<string, unknown>;
  switch (e.type) {
    case "phase.started":
      return `Phase: ${p.phase}`;
    case "directive.created":
      return `New directive (${p.priority}): ${p.topic}`;
    case "directive.completed":
      return `Directive researched (${p.sources} sources)`;
    case "source.added":
      return `Source: ${p.title || p.url} (${p.domain}, ${p.quality})`;
    case "supervision.assessment":
      return `Coverage ${Math.round(Number(p.overallCoverage) * 100)}% after round ${p.round}`;
    case "supervision.heuristic_sufficient":
      return `Coverage sufficient after round ${p.round}`;
    case "clarification.requested":
      return `Waiting for your answer to: ${p.question}`;
    case "plan.awaiting_review":
      return `The plan (${p.directives} directives) waits for your review on the dashboard`;
    case "report.completed":
      return `Report written (${p.citations} citations${p.partial ? ", partial" : ""})`;
    case "run.completed":
      return `Research completed: ${p.sources} sources, ${p.citations} citations`;
    case "run.failed":
      return `Research failed: ${p.reason}`;
    case "run.cancelled":
      return `Research cancelled: ${p.reason}`;
    default:
      return null;
  }
}

const waitingForPerson = new Set(["awaiting_clarification", "awaiting_plan_review"]);

export interface FollowResult {
  /** The seq of the last event looked at: pass it back as `after` to continue from there. */
  cursor: number;
  /** Why the wait ended: the run ended, it waits for its owner, or the time was up. */
  ended: "finished" | "waiting_for_you" | "time_up" | "client_gone";
  notified: number;
}

export interface FollowOptions {
  after: number;
  seconds: number;
  signal: AbortSignal;
  notify: (message: string) => Promise<void>;
}

/**
 * Reports the owner's run's events after `after` through `notify` until it ends, waits for a
 * person, `seconds` pass or `signal` aborts. A 404 (AppError) for a run that is not the owner's. It
 * holds one of the owner's stream slots while it waits (429 past EVENT_STREAMS_MAX_PER_USER).
 */
export async function followRun(
  rt: Runtime,
  runId: string,
  ownerId: string,
  opts: FollowOptions,
): Promise<FollowResult> {
  await ownedRun(rt.handle.db, runId, ownerId);
  const release = takeStreamSlot(ownerId);
  try {
    return await follow(rt, runId, ownerId, opts);
  } finally {
    release();
  }
}

async function follow(
  rt: Runtime,
  runId: string,
  ownerId: string,
  opts: FollowOptions,
): Promise<FollowResult> {
  const deadline = Date.now() + opts.seconds * 1000;
  let cursor = opts.after;
  let notified = 0;
  let wake: (() => void) | null = null;
  const unsubscribe = rt.bus.subscribe(runId, (m) => {
    if (m.kind === "event" && m.seq > cursor) wake?.();
  });
  try {
    while (!opts.signal.aborted) {
      const rows = await listEventsAfter(rt.handle.db, runId, cursor, 500);
      for (const e of rows) {
        cursor = e.seq;
        const line = describeEvent(e);
        if (line) {
          await opts.notify(line);
          notified++;
        }
        if (terminalEventTypes.has(e.type as ResearchEventType))
          return { cursor, ended: "finished", notified };
      }
      if (rows.length === 500) continue;
      const run = await ownedRun(rt.handle.db, runId, ownerId);
      if (waitingForPerson.has(run.status)) return { cursor, ended: "waiting_for_you", notified };
      // Asked again after the end: nothing more will come.
      if (terminalRunStatuses.includes(run.status) && run.lastEventSeq <= cursor) {
        return { cursor, ended: "finished", notified };
      }
      const left = deadline - Date.now();
      if (left <= 0) return { cursor, ended: "time_up", notified };
      await new Promise<void>((resolve) => {
        const timer = setTimeout(done, Math.min(POLL_MS, left));
        function done() {
          clearTimeout(timer);
          wake = null;
          opts.signal.removeEventListener("abort", done);
          resolve();
        }
        wake = done;
        opts.signal.addEventListener("abort", done, { once: true });
      });
    }
    return { cursor, ended: "client_gone", notified };
  } finally {
    unsubscribe();
  }
}
