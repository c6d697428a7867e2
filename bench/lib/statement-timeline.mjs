/**
 * Diagnostic only: logs every SQL statement PGlite runs, with its start time (ms since the epoch),
 * its duration and its first 140 characters, to STMT_LOG_FILE (every second and at exit). Loaded
 * with `NODE_OPTIONS="--import $PWD/bench/lib/statement-timeline.mjs" STMT_LOG_FILE=/tmp/stmts.txt
 * node bench/trace-run.ts`, it shows which statements the app issues between a run's model and web
 * calls (issue 14: the app's own work on the critical path). Patches PGlite's query, exec and
 * transaction in both its ESM and CommonJS builds; without STMT_LOG_FILE it does nothing.
 */
import fs from "node:fs";
import { observePgliteStatements } from "./pglite-statements.mjs";

const file = process.env.STMT_LOG_FILE;
const lines = [];

if (file) {
  observePgliteStatements((label, sql, startedAt, ms) => {
    const text = sql.replace(/\s+/g, " ").slice(0, 140);
    lines.push(`${startedAt} ${ms.toFixed(1)} ${label}: ${text}`);
  });
  // Written every second too: the app's PGlite runs on its own thread, which is ended, not exited.
  const write = () => {
    if (lines.length) fs.writeFileSync(file, lines.join("\n"));
  };
  setInterval(write, 1000).unref();
  process.on("exit", write);
}
