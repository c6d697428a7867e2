/**
 * The embedded database on its own thread, seen from the app's thread: the part of PGlite's API
 * that drizzle, pg-boss and our own modules use (query, exec, transaction, listen, dumpDataDir,
 * close), each call a message to db/pglite-thread.ts. Still one PGlite per process, with its one
 * connection: statements run in the order they were sent, and a transaction holds the connection
 * from its BEGIN to its end, other statements waiting behind it, as on an in-thread PGlite.
 *
 * Why: under many runs and viewers, PGlite's synchronous work (WASM, result parsing, file writes)
 * filled the app's event loop; here it runs on another core while the app's thread serves.
 */
import path from "node:path";
import { type ResourceLimits, Worker } from "node:worker_threads";
import type { QueryOptions, Results, Transaction } from "@electric-sql/pglite";

/** Query options as they cross the thread: parsers must be the identity (see wireOptions). */
export interface WireQueryOptions {
  rowMode?: "array" | "object";
  paramTypes?: number[];
  /** Types returned as PostgreSQL's text instead of parsed (drizzle asks this for dates). */
  textTypes?: number[];
}

export type ThreadRequest = { id: number } & (
  | { op: "query"; tx?: number; text: string; params?: unknown[]; options?: WireQueryOptions }
  | { op: "exec"; tx?: number; text: string; options?: WireQueryOptions }
  | { op: "begin"; tx: number }
  | { op: "rollback"; tx: number }
  | { op: "end"; tx: number; commit: boolean }
  | { op: "listen"; channel: string; listener: number }
  | { op: "unlisten"; listener: number }
  | { op: "dump"; compression: "gzip" | "none" | "auto" }
  | { op: "close" }
);

type Distribute<T> = T extends unknown ? Omit<T, "id"> : never;
type Call = Distribute<ThreadRequest>;

export type ThreadReply =
  | { id: number; ok: true; value: unknown }
  | { id: number; ok: false; error: Record<string, unknown> }
  | { listener: number; payload: string }
  | { ready: true }
  | { ready: false; error: Record<string, unknown> };

/** The thread's entry, from the project root at run time (as the parse workers' and the migrations'). */
export function pgliteThreadFile(): string {
  return path.join(/*turbopackIgnore: true*/ process.cwd(), "db", "pglite-thread.ts");
}

/**
 * Only parsers that return their input can cross: a function cannot be sent to the other thread,
 * and drizzle's are all `(value) => value` (it keeps dates as PostgreSQL's text). Anything else is
 * refused rather than silently parsed differently.
 */
export function wireOptions(options: QueryOptions | undefined): WireQueryOptions | undefined {
  if (!options) return undefined;
  if (options.serializers || options.blob || options.onNotice) {
    throw new Error("The embedded database thread takes rowMode, paramTypes and identity parsers only");
  }
  return {
    rowMode: options.rowMode,
    paramTypes: options.paramTypes,
    textTypes: options.parsers ? textTypesOf(options.parsers) : undefined,
  };
}

// drizzle builds a parser map per query with the same functions: checked once per function.
const identityParsers = new WeakSet<object>();

function textTypesOf(parsers: NonNullable<QueryOptions["parsers"]>): number[] | undefined {
  const types: number[] = [];
  for (const type in parsers) {
    const parse = parsers[type as unknown as number];
    if (!identityParsers.has(parse)) {
      const probe = "2026-01-01 00:00:00+00";
      if (parse(probe) !== probe) {
        throw new Error(`A parser for type ${type} cannot cross to the embedded database thread`);
      }
      identityParsers.add(parse);
    }
    types.push(Number(type));
  }
  return types.length ? types : undefined;
}

/** A PostgreSQL error from the thread, with its fields (code, detail, constraint…) as PGlite gave them. */
function rebuildError(fields: Record<string, unknown>): Error {
  const { message, name, ...rest } = fields;
  const error = Object.assign(new Error(String(message)), rest);
  if (typeof name === "string" && name !== "Error") error.name = name;
  return error;
}

export interface ThreadOptions {
  /**
   * Called once if the thread ends without close() (a crash: out of memory, a WASM abort). Every
   * call waiting and every later one fails either way; the app's handler ends the process, so it
   * restarts and its runs resume, as after any crash.
   */
  onUnexpectedEnd?: (error: Error) => void;
  /** The thread's heap limits (its JS heap; PGlite's WASM memory is apart): unset, Node's defaults. */
  resourceLimits?: ResourceLimits;
}

export class ThreadedPglite {
  readonly waitReady: Promise<void>;
  #worker: Worker;
  #nextId = 1;
  #pending = new Map<number, { resolve(v: unknown): void; reject(e: Error): void }>();
  #listeners = new Map<number, (payload: string) => void>();
  #failure: Error | null = null;
  #closing = false;

  constructor(dataDir: string | null, opts: ThreadOptions = {}) {
    // The entry is always this one path: the bundler, which follows `new Worker`, must be able to
    // tell it is the project's own file run as it is (a path it cannot work out fails the build).
    this.#worker = new Worker(pgliteThreadFile(), {
      workerData: { dataDir },
      resourceLimits: opts.resourceLimits,
    });
    this.waitReady = new Promise<void>((resolve, reject) => {
      this.#worker.on("message", (reply: ThreadReply) => {
        if ("ready" in reply) {
          if (reply.ready) resolve();
          else reject(rebuildError(reply.error));
        } else if ("listener" in reply) {
          this.#listeners.get(reply.listener)?.(reply.payload);
        } else {
          const call = this.#pending.get(reply.id);
          this.#pending.delete(reply.id);
          if (reply.ok) call?.resolve(reply.value);
          else call?.reject(rebuildError(reply.error));
        }
      });
      // The thread gone (a crash, or terminated) fails every call waiting and every later one.
      const fail = (e: Error) => {
        if (this.#failure) return;
        this.#failure = e;
        reject(e);
        for (const call of this.#pending.values()) call.reject(e);
        this.#pending.clear();
        if (!this.#closing) opts.onUnexpectedEnd?.(e);
      };
      this.#worker.on("error", (e) =>
        fail(new Error(`The embedded database thread failed: ${e.message}`, { cause: e })),
      );
      this.#worker.on("exit", (code) =>
        fail(new Error(`The embedded database thread ended (exit code ${code})`)),
      );
    });
    this.waitReady.catch(() => {});
  }

  #call<T>(request: Call): Promise<T> {
    if (this.#failure) return Promise.reject(this.#failure);
    const id = this.#nextId++;
    return new Promise<T>((resolve, reject) => {
      this.#pending.set(id, { resolve: resolve as (v: unknown) => void, reject });
      this.#worker.postMessage({ ...request, id });
    });
  }

  query<T>(text: string, params?: unknown[], options?: QueryOptions, tx?: number): Promise<Results<T>> {
    return this.#call({ op: "query", tx, text, params, options: wireOptions(options) });
  }

  exec(text: string, options?: QueryOptions, tx?: number): Promise<Results[]> {
    return this.#call({ op: "exec", tx, text, options: wireOptions(options) });
  }

  /**
   * Runs `work` in a transaction held open on the thread: it commits when `work` returns and rolls
   * back when it throws (or called rollback()), as PGlite's own transaction does.
   */
  async transaction<T>(work: (tx: Transaction) => Promise<T>): Promise<T> {
    const txId = this.#nextId++;
    await this.#call({ op: "begin", tx: txId });
    let closed = false;
    const tx = {
      query: <R>(text: string, params?: unknown[], options?: QueryOptions) =>
        this.query<R>(text, params, options, txId),
      exec: (text: string, options?: QueryOptions) => this.exec(text, options, txId),
      sql: () => Promise.reject(new Error("tx.sql is not available on the embedded database thread")),
      rollback: async () => {
        closed = true;
        await this.#call({ op: "rollback", tx: txId });
      },
      listen: () => Promise.reject(new Error("listen inside a transaction is not available on the thread")),
      get closed() {
        return closed;
      },
    } as unknown as Transaction;
    let result: T;
    try {
      result = await work(tx);
    } catch (e) {
      await this.#call({ op: "end", tx: txId, commit: false }).catch(() => {});
      throw e;
    }
    await this.#call({ op: "end", tx: txId, commit: true });
    return result;
  }

  async listen(channel: string, callback: (payload: string) => void): Promise<() => Promise<void>> {
    const listener = this.#nextId++;
    this.#listeners.set(listener, callback);
    await this.#call({ op: "listen", channel, listener });
    return async () => {
      this.#listeners.delete(listener);
      await this.#call({ op: "unlisten", listener });
    };
  }

  async dumpDataDir(compression: "gzip" | "none" | "auto" = "gzip"): Promise<Blob> {
    const bytes = await this.#call<Uint8Array>({ op: "dump", compression });
    return new Blob([bytes as BlobPart]);
  }

  /** Closes the database (its last writes flushed), then ends the thread. */
  async close(): Promise<void> {
    this.#closing = true;
    if (!this.#failure) await this.#call({ op: "close" }).catch(() => {});
    await this.#worker.terminate();
  }
}
