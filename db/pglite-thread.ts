/**
 * The embedded database's own thread: one PGlite, opened here, that answers the statements the
 * app's thread sends (db/pglite-threaded.ts). PGlite runs each statement synchronously — WASM
 * execution, result parsing, file writes — so on the app's thread it stalls every stream and
 * request while it works; here that work runs beside them, on the second core.
 *
 * Run by node directly as a worker (types are stripped), so it imports nothing bundled.
 */
import { parentPort, workerData } from "node:worker_threads";
import { PGlite, type QueryOptions, type Transaction } from "@electric-sql/pglite";
import { pg_trgm } from "@electric-sql/pglite/contrib/pg_trgm";
import type { ThreadReply, ThreadRequest, WireQueryOptions } from "./pglite-threaded.ts";

const port = parentPort;
if (!port) throw new Error("db/pglite-thread.ts runs as a worker thread");
const { dataDir } = workerData as { dataDir: string | null };
const extensions = { pg_trgm };
const db = dataDir ? new PGlite(dataDir, { extensions }) : new PGlite({ extensions });

/** Open transactions by the id the app's thread gave them, and how each one is ended. */
const open = new Map<number, { tx: Transaction; end(commit: boolean): void; done: Promise<void> }>();
const unlisten = new Map<number, () => Promise<void>>();

/** Thrown out of a transaction's callback so PGlite rolls it back; not an error of the caller's. */
const rollback = Symbol("rollback");

function queryOptions(o: WireQueryOptions | undefined): QueryOptions | undefined {
  if (!o) return undefined;
  const same = (value: unknown) => value;
  return {
    rowMode: o.rowMode,
    paramTypes: o.paramTypes,
    parsers: o.textTypes ? Object.fromEntries(o.textTypes.map((t) => [t, same])) : undefined,
  };
}

function target(txId: number | undefined): PGlite | Transaction {
  if (txId === undefined) return db;
  const entry = open.get(txId);
  if (!entry) throw new Error(`transaction ${txId} is not open`);
  return entry.tx;
}

/** Opens the transaction and answers once it is open; it stays open until its "end" request. */
function begin(txId: number): Promise<void> {
  return new Promise<void>((opened, failed) => {
    let end: (commit: boolean) => void = () => {};
    const ended = new Promise<boolean>((resolve) => {
      end = resolve;
    });
    const entry = { tx: undefined as unknown as Transaction, end, done: Promise.resolve() };
    entry.done = db
      .transaction(async (tx) => {
        entry.tx = tx;
        open.set(txId, entry);
        opened();
        if (!(await ended)) throw rollback;
      })
      .catch((e) => {
        if (e !== rollback) throw e;
      })
      .finally(() => open.delete(txId));
    // A transaction that could not begin fails the begin request (later failures go to "end").
    entry.done.catch(failed);
  });
}

async function answer(m: ThreadRequest): Promise<unknown> {
  switch (m.op) {
    case "query":
      return target(m.tx).query(m.text, m.params, queryOptions(m.options));
    case "exec":
      return target(m.tx).exec(m.text, queryOptions(m.options));
    case "begin":
      return begin(m.tx);
    case "rollback":
      return (target(m.tx) as Transaction).rollback();
    case "end": {
      const entry = open.get(m.tx);
      if (!entry) return undefined;
      entry.end(m.commit);
      return entry.done;
    }
    case "listen": {
      const stop = await db.listen(m.channel, (payload) => post({ listener: m.listener, payload }));
      unlisten.set(m.listener, stop);
      return undefined;
    }
    case "unlisten":
      await unlisten.get(m.listener)?.();
      unlisten.delete(m.listener);
      return undefined;
    case "dump": {
      const file = await db.dumpDataDir(m.compression);
      return new Uint8Array(await file.arrayBuffer());
    }
    case "close":
      await db.close();
      return undefined;
  }
}

function post(reply: ThreadReply): void {
  const transfer =
    "value" in reply && reply.value instanceof Uint8Array ? [reply.value.buffer as ArrayBuffer] : [];
  port?.postMessage(reply, transfer);
}

/** An error's message and its own fields (a PostgreSQL error's code, detail, constraint…). */
function errorFields(e: unknown): Record<string, unknown> {
  if (!(e instanceof Error)) return { message: String(e) };
  const fields: Record<string, unknown> = { message: e.message, name: e.name };
  for (const [k, v] of Object.entries(e)) {
    if (v === undefined || typeof v === "function" || (typeof v === "object" && v !== null)) continue;
    fields[k] = v;
  }
  return fields;
}

port.on("message", (m: ThreadRequest) => {
  answer(m).then(
    (value) => post({ id: m.id, ok: true, value }),
    (e) => post({ id: m.id, ok: false, error: errorFields(e) }),
  );
});

db.waitReady.then(
  () => post({ ready: true }),
  (e) => post({ ready: false, error: errorFields(e) }),
);
