/**
 * Diagnostic only: logs every SQL statement PGlite runs, with its start time (ms since the epoch),
 * its duration and its first 140 characters, to STMT_LOG_FILE when the process exits. Loaded with
 * `NODE_OPTIONS="--import $PWD/bench/lib/statement-timeline.mjs" STMT_LOG_FILE=/tmp/stmts.txt
 * node bench/trace-run.ts`, it shows which statements the app issues between a run's model and web
 * calls (issue 14: the app's own work on the critical path). Patches PGlite's query, exec and
 * transaction in both its ESM and CommonJS builds; without STMT_LOG_FILE it does nothing.
 */
import fs from "node:fs";
import { createRequire } from "node:module";
import * as esm from "@electric-sql/pglite";

const file = process.env.STMT_LOG_FILE;
const lines = [];

const timed =
  (label, run) =>
  async (sql, ...rest) => {
    const t = Date.now();
    const p = performance.now();
    try {
      return await run(sql, ...rest);
    } finally {
      const text = String(sql).replace(/\s+/g, " ").slice(0, 140);
      lines.push(`${t} ${(performance.now() - p).toFixed(1)} ${label}: ${text}`);
    }
  };

if (file) {
  const cjs = createRequire(import.meta.url)("@electric-sql/pglite");
  for (const PGlite of new Set([esm.PGlite, cjs.PGlite])) {
    const proto = PGlite.prototype;
    for (const m of ["query", "exec"]) {
      const orig = proto[m];
      proto[m] = function (...a) {
        return timed(m, (...b) => orig.apply(this, b))(...a);
      };
    }
    const transaction = proto.transaction;
    proto.transaction = function (cb) {
      return transaction.call(this, (tx) => {
        tx.query = timed("tx", tx.query.bind(tx));
        return cb(tx);
      });
    };
  }
  process.on("exit", () => {
    if (lines.length) fs.writeFileSync(file, lines.join("\n"));
  });
}
