/**
 * Writes behind the next model call. The bookkeeping a step ends with (a round's decided record and
 * its events, a phase transition) need not hold up the model call that begins the next step:
 * deferred here, it is written, in order, while that call is out.
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

/** The store, each of its methods waiting for the deferred writes first. */
function waitingStore(store: RunStore, behind: WritesBehind): RunStore {
  const wrapped = new Map<PropertyKey, unknown>();
  return new Proxy(store, {
    get(target, key) {
      const value: unknown = Reflect.get(target, key, target);
      if (typeof value !== "function") return value;
      if (!wrapped.has(key)) wrapped.set(key, afterDeferred(behind, value.bind(target)));
      return wrapped.get(key);
    },
  });
}

function waitingSink(events: EventSink, behind: WritesBehind): EventSink {
  const emitMany = events.emitMany;
  return {
    emit: afterDeferred(behind, events.emit.bind(events)),
    ...(emitMany ? { emitMany: afterDeferred(behind, emitMany.bind(events)) } : {}),
  };
}

/**
 * The dependencies an attempt runs with: the store and sink wait for deferred writes, and
 * `behind` takes them (deferWrite). Applied once per attempt (runResearch).
 */
export function withWritesBehind(deps: EngineDeps): EngineDeps {
  if (deps.behind) return deps;
  const behind = createWritesBehind(deps);
  return {
    ...deps,
    behind,
    store: waitingStore(deps.store, behind),
    events: waitingSink(deps.events, behind),
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

/** An event announced behind the next model call (deferWrite): it keeps its place among the events. */
export function emitBehind(deps: EngineDeps, event: ResearchEvent): Promise<void> {
  return deferWrite(deps, (d) => d.events.emit(event));
}

/** What a deferred write needs of the engine's dependencies. */
export type WriteParts = Pick<EngineDeps, "store" | "events" | "behind">;
