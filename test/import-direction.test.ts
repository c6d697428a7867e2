// Each folder imports only downward: eval (the `npm run eval` tool, beside app) and app → components → lib/server → lib/jobs → db → lib/research →
// lib/ai, lib/search, lib/fetch (peers that do not import each other); lib/errors.ts and lib/http.ts
// are base modules anyone may use. This test reads every non-test source file's imports and fails on
// one that points up (or sideways between the three low-level libraries), so the rule keeps holding.
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

/** Repository-relative targets of a file's static imports and re-exports (relative or "@/"). */
function importTargets(file: string, text: string): string[] {
  const specs = [...text.matchAll(/(?:^|\n)\s*(?:import|export)[^"';]*?from\s+["']([^"']+)["']/g)].map(
    (m) => m[1],
  );
  return specs.flatMap((s) => {
    if (s.startsWith("@/")) return [s.slice(2)];
    if (s.startsWith(".")) return [path.posix.normalize(path.posix.join(path.posix.dirname(file), s))];
    return [];
  });
}

const readSource = (file: string) => fs.readFileSync(path.join(root, file), "utf8");

function importViolations(files: string[], read: (file: string) => string = readSource): string[] {
  const found: string[] = [];
  for (const file of files) {
    const [from, fromRank] = layerOf(file) as [string, number];
    for (const target of importTargets(file, read(file))) {
      const to = layerOf(target);
      if (!to || to[0] === from) continue;
      if (to[1] <= fromRank) found.push(`${file} imports ${target} (${from} → ${to[0]})`);
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

  it("no source file imports a folder above it, or a low-level peer", () => {
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
});
