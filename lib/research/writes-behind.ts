/**
 * Writes behind the next model call: a policy of the store and event sink the engine is given for
 * an attempt (withWritesBehind). The bookkeeping a step ends with (a round's record, the
 * supervisor's announcements, a round's directive starts) need not hold up the model call that
 * begins the next step: the store and sink queue those writes and return at once, and the queue
 * writes them, in order, while that call is out. The engine's code just writes; which writes go
 * behind is decided here (WRITTEN_BEHIND). A step that ends with a write built from reads (a phase
 * transition, the skipping of leftovers) defers it as a whole with deferWrite.
 *
 * Why this keeps the run exact:
 * - Every store call and every event the engine makes after a deferral waits for the deferred
 *   writes first (the store and sink are wrapped), so nothing is read before what it follows is
 *   written, and events keep their order.
 * - Deferred writes run one after another, each only if all before it succeeded. A crash or a failed
 *   write therefore leaves the store as it stood at some earlier moment of the run, a state the
 *   engine resumes from like any other: a step whose end was not stored is done again.
 * - A failed deferred write is thrown by the engine's next store call (or by flush), so the attempt
 *   fails as it would have had the write been awaited.
 * - Events are still written before they are announced; only model and web calls go on meanwhile.
 */
import type { EngineDeps } from "./deps.ts";
import type { EventSink, ResearchEvent } from "./events.ts";
import type { RunStore } from "./store.ts";
import { createWriteQueue } from "./write-queue.ts";

/**
 * The policy: the writes nothing reads before the next model call returns, so they go behind it.
 * Store methods here return nothing the caller uses; events here announce a step that has ended
 * (or a call about to be made) and are read only by viewers.
 */
export const WRITTEN_BEHIND = {
  store: new Set<keyof RunStore>(["saveRound", "markDirectivesRunning"]),
  events: new Set<ResearchEvent["type"]>([
    "supervision.round_started",
    "supervision.first_round_generate",
    "supervision.first_round_critique",
    "supervision.think",
    "supervision.round_completed",
    "directive.started",
    "report.started",
  ]),
};

/** A deferred write gets the engine's dependencies with the store and sink that do not wait. */
export type DeferredWrite = (direct: EngineDeps) => Promise<unknown>;

export interface WritesBehind {
  /** Queues `write` after every write deferred before it and returns at once. */
  defer(write: DeferredWrite): void;
  /** Waits for every deferred write; throws (once) the first that failed. */
  flush(): Promise<void>;
  /** Whether a deferred write is queued or has failed unobserved: a store call must flush first. */
  busy(): boolean;
  /** Whether a deferred write has failed unobserved: nothing more is deferred, the failure is thrown. */
  failed(): boolean;
}

function createWritesBehind(direct: EngineDeps): WritesBehind {
  const queue = createWriteQueue({
    // After a failure nothing more is written: the store stays a state the run passed through.
    stopAtFailure: true,
    // From idle, the first write waits for the next turn of the event loop: the model call that
    // follows the deferral gets its request out before the writes take the thread.
    start: () => new Promise<void>((resolve) => setImmediate(resolve)),
  });
  return {
    defer: (write) => queue.add(() => write(direct)),
    async flush() {
      await queue.drain();
      const failed = queue.failure();
      if (failed) {
        queue.clearFailure();
        throw failed.error;
      }
    },
    busy: () => queue.busy() || queue.failure() !== undefined,
    failed: () => queue.failure() !== undefined,
  };
}

/** Calls `method` at once when nothing is deferred, else after the deferred writes. */
function afterDeferred<A extends unknown[], R>(
  behind: WritesBehind,
  method: (...args: A) => Promise<R>,
): (...args: A) => Promise<R> {
  return (...args) => (behind.busy() ? behind.flush().then(() => method(...args)) : method(...args));
}

/** Queues `method` behind the next model call; a write that already failed is thrown first. */
function queued<A extends unknown[]>(
  behind: WritesBehind,
  method: (...args: A) => Promise<unknown>,
): (...args: A) => Promise<void> {
  return async (...args) => {
    if (behind.failed()) await behind.flush();
    behind.defer(() => method(...args));
  };
}

/** The store: the policy's writes queued, every other call waiting for the queue first. */
function storeWithPolicy(store: RunStore, behind: WritesBehind): RunStore {
  const wrapped = new Map<PropertyKey, unknown>();
  return new Proxy(store, {
    get(target, key) {
      const value: unknown = Reflect.get(target, key, target);
      if (typeof value !== "function") return value;
      if (!wrapped.has(key)) {
        const method = value.bind(target);
        const writtenBehind = WRITTEN_BEHIND.store.has(key as keyof RunStore);
        wrapped.set(key, writtenBehind ? queued(behind, method) : afterDeferred(behind, method));
      }
      return wrapped.get(key);
    },
  });
}

const isWrittenBehind = (e: Pick<ResearchEvent, "type">) => WRITTEN_BEHIND.events.has(e.type);

/** The sink: the policy's events queued (in their place among the others), the rest waiting for the queue. */
function sinkWithPolicy(events: EventSink, behind: WritesBehind): EventSink {
  const emit = events.emit.bind(events);
  const emitMany = events.emitMany?.bind(events);
  const later = queued(behind, emit);
  const now = afterDeferred(behind, emit);
  return {
    emit: (event) => (isWrittenBehind(event) ? later(event) : now(event)),
    ...(emitMany
      ? {
          emitMany: (list) =>
            list.every(isWrittenBehind)
              ? queued(behind, emitMany)(list)
              : afterDeferred(behind, emitMany)(list),
        }
      : {}),
  };
}

/**
 * The dependencies an attempt runs with: the store and sink with the policy (the writes it names
 * queued, every other call after the queue), and `behind`, the queue (deferWrite). Applied once
 * per attempt (runResearch).
 */
export function withWritesBehind(deps: EngineDeps): EngineDeps {
  if (deps.behind) return deps;
  const behind = createWritesBehind(deps);
  return {
    ...deps,
    behind,
    store: storeWithPolicy(deps.store, behind),
    events: sinkWithPolicy(deps.events, behind),
  };
}

/**
 * Writes `write` behind the next model call when the engine runs with writes behind; otherwise
 * (a phase called on its own, as in unit tests) writes it now. Either way the caller goes on as
 * if it were written: whatever it does next with the store comes after it. A deferred write that
 * has already failed is thrown here.
 */
export function deferWrite(deps: EngineDeps, write: DeferredWrite): Promise<void>;
/** The same for code given only the store and sink (and the queue when there is one). */
export function deferWrite(deps: WriteParts, write: (direct: WriteParts) => Promise<unknown>): Promise<void>;
export async function deferWrite(
  deps: WriteParts,
  write: (direct: never) => Promise<unknown>,
): Promise<void> {
  const run = write as (direct: WriteParts) => Promise<unknown>;
  if (!deps.behind) return void (await run(deps));
  // A write that already failed fails the attempt here, before another model call is made for it.
  if (deps.behind.failed()) await deps.behind.flush();
  deps.behind.defer(run);
}

/** What a deferred write needs of the engine's dependencies. */
export type WriteParts = Pick<EngineDeps, "store" | "events" | "behind">;
