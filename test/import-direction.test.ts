// Each folder imports only downward: eval (the `npm run eval` tool, beside app) and app → components → lib/server → lib/jobs → db → lib/research →
// lib/ai, lib/search, lib/fetch (peers that do not import each other); lib/errors.ts and lib/http.ts
// are base modules anyone may use. This test reads every non-test source file's imports and fails on
// one that points up (or sideways between the three low-level libraries), so the rule keeps holding.
// Three more rules keep each boundary narrow:
// - the engine has two public doors: lib/research/index.ts (for the server and the worker) and
//   lib/research/ui.ts (the pure parts the UI needs); nothing outside lib/research goes past them;
// - drizzle is db/'s business: no file outside db/ imports drizzle-orm;
// - route handlers, server actions and MCP tools are adapters: they call lib/server's actions and
//   never reach db/ or lib/jobs/ themselves. Into lib/server they import only
//   (a) a module of a feature folder, lib/server/<feature>/<file> (an action with its input schema,
//       or a read/view), unless the file's leading comment marks it `@internal` (a helper of the
//       feature's actions: ownership checks, streaming plumbing, renderers, OpenAPI fragments);
//   (b) the shared adapter helpers in `sharedAdapterHelpers` (who is calling, ids, rate limits, the
//       runtime, the public origin) and the adapters' own plumbing in lib/server/actions and
//       lib/server/mcp.
//   A flat lib/server/*.ts file or an auth/ module not on that list is infrastructure, not an action.
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";

const root = path.resolve(import.meta.dirname, "..");
const layers: [folder: string, rank: number][] = [
  ["eval", 0],
  ["app", 0],
  ["components", 1],
  ["lib/server", 2],
  ["lib/jobs", 3],
  ["db", 4],
  ["lib/research", 5],
  ["lib/ai", 6],
  ["lib/search", 6],
  ["lib/fetch", 6],
  ["lib", 7],
];

function layerOf(file: string): [string, number] | undefined {
  return layers.find(([folder]) => file === folder || file.startsWith(`${folder}/`));
}

function sourceFiles(): string[] {
  const out = execFileSync("git", ["ls-files", "-co", "--exclude-standard", "*.ts", "*.tsx"], {
    cwd: root,
    encoding: "utf8",
  });
  return out
    .split("\n")
    .filter((f) => f && !/\.test\.tsx?$/.test(f) && layerOf(f) && fs.existsSync(path.join(root, f)));
}

/** Every static import and re-export specifier of a file, as written. */
function importSpecifiers(text: string): string[] {
  return [...text.matchAll(/(?:^|\n)\s*(?:import|export)[^"';]*?from\s+["']([^"']+)["']/g)].map((m) => m[1]);
}

/** Repository-relative targets of a file's static imports and re-exports (relative or "@/"), without extension. */
function importTargets(file: string, text: string): string[] {
  return importSpecifiers(text).flatMap((s) => {
    if (s.startsWith("@/")) return [s.slice(2)];
    if (s.startsWith(".")) return [path.posix.normalize(path.posix.join(path.posix.dirname(file), s))];
    return [];
  });
}

const readSource = (file: string) => fs.readFileSync(path.join(root, file), "utf8");
const withoutExtension = (target: string) => target.replace(/\.tsx?$/, "");
const under = (target: string, folder: string) => target === folder || target.startsWith(`${folder}/`);

/** The engine's public modules: everything else in lib/research is private to it. */
const engineDoors = ["lib/research/index", "lib/research/ui"];

/**
 * What an adapter may import from lib/server besides a feature folder's actions: the few helpers
 * every adapter shares. Keep it short: a new entry is a module adapters cannot do without, never a
 * feature (that goes in a folder of its own).
 */
const sharedAdapterHelpers = [
  "lib/server/runtime", // the process's database and queue
  "lib/server/owner", // the caller's user id (or 401)
  "lib/server/ids", // a malformed id is a 404, like a missing one
  "lib/server/rate-limits", // the per-caller request limits
  "lib/server/auth/caller", // who is calling, with which scope
  "lib/server/auth/settings", // the public origin links are built on
  "lib/server/auth/scopes", // the token scope vocabulary MCP tools declare
  "lib/server/auth/handler", // better-auth's own routes (/api/auth/*)
];
/** The adapters' own plumbing (form state, tool results): adapters among themselves. */
const adapterFolders = ["lib/server/actions", "lib/server/mcp"];
/** Folders of lib/server that are not features: sign-in machinery and the adapters themselves. */
const notFeatures = ["auth", "actions", "mcp"];

/** True when the module's leading comment (before its first import or export) says `@internal`. */
function isInternal(target: string): boolean {
  const file = [target, `${target}.ts`, `${target}.tsx`].find(
    (f) => /\.tsx?$/.test(f) && fs.existsSync(path.join(root, f)),
  );
  return (
    !!file &&
    readSource(file)
      .split(/\n(?:import|export)\b/)[0]
      .includes("@internal")
  );
}

/** Why an adapter may not import this lib/server module, or undefined when it may. */
function adapterReach(target: string): string | undefined {
  const module = withoutExtension(target);
  if (sharedAdapterHelpers.includes(module) || adapterFolders.some((f) => under(module, f))) return;
  const [, , feature, ...rest] = module.split("/");
  if (rest.length !== 1 || notFeatures.includes(feature))
    return "neither a feature folder's module nor a shared helper";
  if (isInternal(target)) return "@internal to its feature";
}

/** Route handlers, server actions ("use server" files) and MCP tools: thin adapters over lib/server. */
function isAdapter(file: string, text: string): boolean {
  return (
    /^app\/.*\/route\.tsx?$/.test(file) ||
    under(file, "lib/server/mcp") ||
    /^\s*(?:\/\/[^\n]*\n\s*)*["']use server["']/.test(text)
  );
}

function importViolations(files: string[], read: (file: string) => string = readSource): string[] {
  const found: string[] = [];
  for (const file of files) {
    const text = read(file);
    const [from, fromRank] = layerOf(file) as [string, number];
    const adapter = isAdapter(file, text);
    for (const target of importTargets(file, text)) {
      const to = layerOf(target);
      if (to && to[0] !== from && to[1] <= fromRank) {
        found.push(`${file} imports ${target} (${from} → ${to[0]})`);
      }
      if (
        from !== "lib/research" &&
        under(target, "lib/research") &&
        !engineDoors.includes(withoutExtension(target))
      ) {
        found.push(`${file} imports ${target} (past the engine's public modules)`);
      }
      if (adapter && (under(target, "db") || under(target, "lib/jobs"))) {
        found.push(`${file} imports ${target} (an adapter reaching below lib/server)`);
      }
      const reach = adapter && under(target, "lib/server") ? adapterReach(target) : undefined;
      if (reach)
        found.push(`${file} imports ${target} (an adapter importing lib/server beyond actions: ${reach})`);
    }
    if (from !== "db") {
      for (const spec of importSpecifiers(text)) {
        if (spec === "drizzle-orm" || spec.startsWith("drizzle-orm/")) {
          found.push(`${file} imports ${spec} (drizzle outside db/)`);
        }
      }
    }
  }
  return found;
}

describe("imports go one way", () => {
  it("reads the source folders", () => {
    const files = sourceFiles();
    for (const folder of [
      "eval/",
      "app/",
      "components/",
      "lib/server/",
      "lib/jobs/",
      "db/",
      "lib/research/",
    ]) {
      expect(files.some((f) => f.startsWith(folder))).toBe(true);
    }
  });

  it("no source file imports a folder above it, a low-level peer, or past a boundary", () => {
    expect(importViolations(sourceFiles())).toEqual([]);
  });

  it("the rule catches an upward and a sideways import, and allows a downward one", () => {
    const probes: Record<string, string> = {
      "lib/research/probe-up.ts": 'import type { Db } from "../../db/client.ts";\n',
      "lib/search/probe-side.ts": 'import { safeFetch } from "../fetch/safe-fetch.ts";\n',
      "app/probe-down.tsx": 'import { handle } from "@/lib/http";\nexport { x } from "../db/schema.ts";\n',
    };
    const v = importViolations(Object.keys(probes), (f) => probes[f]);
    expect(v).toEqual([
      "lib/research/probe-up.ts imports db/client.ts (lib/research → db)",
      "lib/search/probe-side.ts imports lib/fetch/safe-fetch.ts (lib/search → lib/fetch)",
    ]);
  });

  it("the rules catch a deep engine import, drizzle outside db/, an adapter reaching below lib/server, and one past a feature's actions", () => {
    const probes: Record<string, string> = {
      "components/probe-deep.tsx": 'import { x } from "@/lib/research/phases/supervision/coverage";\n',
      "components/probe-door.tsx": 'import { y } from "@/lib/research/ui";\n',
      "lib/jobs/probe-door.ts": 'import { z } from "../research/index.ts";\n',
      "lib/research/phases/probe-inside.ts": 'import { w } from "../report/synthesis.ts";\n',
      "lib/server/probe-drizzle.ts": 'import { eq } from "drizzle-orm";\n',
      "db/queries/probe-drizzle.ts": 'import { eq } from "drizzle-orm";\n',
      "app/api/probe/route.ts": 'import { getRun } from "@/db/queries/runs";\n',
      "lib/server/mcp/probe-tool.ts": 'import type { Runtime } from "../../jobs/runtime.ts";\n',
      "lib/server/actions/probe.ts":
        '"use server";\nimport { effectiveConfig } from "../../jobs/settings/effective-config.ts";\n',
      "lib/server/runs/probe-action.ts": 'import { getRun } from "../../../db/queries/runs.ts";\n',
      // Into lib/server, an adapter takes a feature's action or view and the shared helpers only.
      "app/api/probe-ok/route.ts":
        'import { cancelRun } from "@/lib/server/runs/cancel";\nimport { requireCaller } from "@/lib/server/auth/caller";\nimport { serverRuntime } from "@/lib/server/runtime";\nimport { jsonResult } from "@/lib/server/mcp/tool-results";\n',
      "app/api/probe-internal/route.ts": 'import { ownedRun } from "@/lib/server/runs/owned";\n',
      "lib/server/mcp/probe-flat.ts": 'import { holdLease } from "../leases.ts";\n',
      "lib/server/actions/probe-auth.ts": '"use server";\nimport { getAuth } from "../auth/instance.ts";\n',
      "lib/server/runs/probe-inside.ts": 'import { ownedRun } from "./owned.ts";\n',
    };
    const v = importViolations(Object.keys(probes), (f) => probes[f]);
    expect(v).toEqual([
      "components/probe-deep.tsx imports lib/research/phases/supervision/coverage (past the engine's public modules)",
      "lib/server/probe-drizzle.ts imports drizzle-orm (drizzle outside db/)",
      "app/api/probe/route.ts imports db/queries/runs (an adapter reaching below lib/server)",
      "lib/server/mcp/probe-tool.ts imports lib/jobs/runtime.ts (an adapter reaching below lib/server)",
      "lib/server/actions/probe.ts imports lib/jobs/settings/effective-config.ts (an adapter reaching below lib/server)",
      "app/api/probe-internal/route.ts imports lib/server/runs/owned (an adapter importing lib/server beyond actions: @internal to its feature)",
      "lib/server/mcp/probe-flat.ts imports lib/server/leases.ts (an adapter importing lib/server beyond actions: neither a feature folder's module nor a shared helper)",
      "lib/server/actions/probe-auth.ts imports lib/server/auth/instance.ts (an adapter importing lib/server beyond actions: neither a feature folder's module nor a shared helper)",
    ]);
  });
});
