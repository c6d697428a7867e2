/**
 * For the diagnostic preloads (query-probe.mjs, statement-timeline.mjs): calls `observe(label, sql,
 * startedAt, ms)` after every statement any PGlite in this process runs — `query`, `exec`, and the
 * queries inside a transaction ("in transaction"), with the whole transaction as one more entry
 * ("transaction") when `wholeTransactions` is set. It patches PGlite's prototype, so the app needs no
 * change; the app may load PGlite as ESM or CommonJS (bundler externals), so both classes are patched.
 */
import { createRequire } from "node:module";
import * as esm from "@electric-sql/pglite";

export function observePgliteStatements(observe, { wholeTransactions = false } = {}) {
  const timed =
    (label, run) =>
    async (sql, ...rest) => {
      const startedAt = Date.now();
      const t = performance.now();
      try {
        return await run(sql, ...rest);
      } finally {
        observe(label, String(sql), startedAt, performance.now() - t);
      }
    };
  const cjs = createRequire(import.meta.url)("@electric-sql/pglite");
  for (const PGlite of new Set([esm.PGlite, cjs.PGlite])) {
    const proto = PGlite.prototype;
    for (const m of ["query", "exec"]) {
      const orig = proto[m];
      proto[m] = function (...args) {
        return timed(m, (...a) => orig.apply(this, a))(...args);
      };
    }
    const transaction = proto.transaction;
    proto.transaction = function (callback) {
      const run = () =>
        transaction.call(this, (tx) => {
          tx.query = timed("in transaction", tx.query.bind(tx));
          return callback(tx);
        });
      return wholeTransactions ? timed("transaction", run)("(whole transaction)") : run();
    };
  }
}
