// `npm start`: build when there is no build yet or the sources changed since the last one, then serve.
// Keeps the README's quick start to one command on a fresh clone without rebuilding on every start.
import { spawn, spawnSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";

const root = process.cwd();
const buildId = path.join(root, ".next", "BUILD_ID");
const watched = [
  "app",
  "components",
  "lib",
  "db",
  "public",
  "instrumentation.ts",
  "next.config.ts",
  "package.json",
];

function newestMtime(p) {
  if (!fs.existsSync(p)) return 0;
  const st = fs.statSync(p);
  if (!st.isDirectory()) return st.mtimeMs;
  let max = st.mtimeMs;
  for (const e of fs.readdirSync(p)) max = Math.max(max, newestMtime(path.join(p, e)));
  return max;
}

const built = fs.existsSync(buildId) ? fs.statSync(buildId).mtimeMs : 0;
const sources = Math.max(...watched.map((w) => newestMtime(path.join(root, w))));
if (!built || sources > built || process.env.FORCE_BUILD === "1") {
  console.log(built ? "sources changed since the last build: rebuilding…" : "no build yet: building…");
  const r = spawnSync("npx", ["next", "build"], { stdio: "inherit" });
  if (r.status !== 0) process.exit(r.status ?? 1);
}
if (process.env.DATABASE_URL && !process.env.AUTH_SECRET) {
  console.error(
    "AUTH_SECRET is required when DATABASE_URL is set (every web and worker process must share it).\n" +
      "Generate one with: openssl rand -base64 48 — then start again with AUTH_SECRET=<that value>.",
  );
  process.exit(1);
}
const child = spawn(process.execPath, [path.join(root, "scripts", "serve.mjs")], { stdio: "inherit" });
for (const sig of ["SIGINT", "SIGTERM"]) process.on(sig, () => child.kill(sig));
child.on("exit", (code) => process.exit(code ?? 0));
