/**
 * Diagnostic preload, not used by any figure: NODE_OPTIONS="--import <this file>" with
 * QUERY_PROBE_FILE=<path> makes an embedded app count its PGlite statements (by SQL text, numbers
 * of parameters folded) and the time each spent awaited — queueing behind PGlite's single
 * connection included — and write the table to that file every second and at exit. Creating
 * "<path>.reset" once clears what was counted so far (e.g. after a warm-up run). It patches PGlite's prototype, so it
 * needs no app change; it is how the query counts in the issue-14 notes were taken.
 */
import fs from "node:fs";
import { observePgliteStatements } from "./pglite-statements.mjs";

const file = process.env.QUERY_PROBE_FILE;
const stats = new Map();
const record = (sql, ms) => {
  const key = String(sql).replace(/\s+/g, " ").slice(0, 160);
  const e = stats.get(key) ?? { n: 0, ms: 0 };
  e.n++;
  e.ms += ms;
  stats.set(key, e);
};

if (file) {
  observePgliteStatements((label, sql, _startedAt, ms) => record(`${label}: ${sql}`, ms), {
    wholeTransactions: true,
  });
  const watch = setInterval(() => {
    if (!fs.existsSync(`${file}.reset`)) return;
    stats.clear();
    clearInterval(watch);
  }, 100);
  watch.unref();
  const write = () => {
    // Only the thread that ran statements writes (NODE_OPTIONS reaches the bench runner too, and
    // the app's PGlite runs on its own thread, which is ended rather than exited).
    if (stats.size === 0) return;
    const rows = [...stats.entries()].sort((a, b) => b[1].ms - a[1].ms);
    const line = ([k, v]) => `${String(v.n).padStart(6)} ${v.ms.toFixed(0).padStart(7)} ms  ${k}`;
    fs.writeFileSync(file, rows.map(line).join("\n"));
  };
  setInterval(write, 1000).unref();
  process.on("exit", write);
}
