// Every environment variable the application reads is explained in docs/operations.md. The scan
// reads the code of the app, its scripts and libraries (not tests) for the ways variables are read
// here: process.env.X, an env object's .X or ["X"], and the readers' (env, "X") arguments.
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";

const root = path.resolve(import.meta.dirname, "..");
const folders = [
  "app",
  "components",
  "lib",
  "db",
  "scripts",
  "instrumentation.ts",
  "proxy.ts",
  "next.config.ts",
];

/** Set by the runtime for its own use, never by an operator. */
const runtimeOnly = new Set(["NEXT_RUNTIME"]);

const reads = [
  /process\.env\.([A-Z][A-Z0-9_]+)/g,
  /process\.env\[\s*["']([A-Z][A-Z0-9_]+)["']/g,
  /\b\w*(?:env|Env|base|overlay)\w*\??\.([A-Z][A-Z0-9_]{2,})\b/g,
  /\b\w*(?:env|Env|base|overlay)\w*\[\s*["']([A-Z][A-Z0-9_]+)["']/g,
  /\(\s*\w*(?:env|Env|base|environment|source)\w*\s*,\s*["']([A-Z][A-Z0-9_]+)["']/g,
];

/** The names of the variables a source text reads. */
function variablesRead(text: string): string[] {
  return [...new Set(reads.flatMap((pattern) => [...text.matchAll(pattern)].map((m) => m[1])))];
}

function sourceFiles(): string[] {
  const out = execFileSync("git", ["ls-files", "-co", "--exclude-standard", ...folders], {
    cwd: root,
    encoding: "utf8",
  });
  return out
    .split("\n")
    .filter(
      (f) => /\.(ts|tsx|mjs)$/.test(f) && !/\.test\.tsx?$/.test(f) && fs.existsSync(path.join(root, f)),
    );
}

describe("docs/operations.md names every variable the app reads", () => {
  const readers = new Map<string, string[]>();
  for (const file of sourceFiles()) {
    for (const name of variablesRead(fs.readFileSync(path.join(root, file), "utf8"))) {
      readers.set(name, [...(readers.get(name) ?? []), file]);
    }
  }

  it("finds the variables, however they are read", () => {
    for (const name of ["DATABASE_URL", "RUN_MAX_TOKENS", "SEARXNG_URL", "LOG_LEVEL", "AUTH_SECRET"]) {
      expect(readers.has(name), name).toBe(true);
    }
    expect(readers.size).toBeGreaterThan(50);
    expect(
      variablesRead(
        'process.env.A_B; env["C_D"]; envNumber(env, "E_F", 1); base.G_H; process.env["I_J"]; overlay.K_L = 1',
      ).sort(),
    ).toEqual(["A_B", "C_D", "E_F", "G_H", "I_J", "K_L"]);
    expect(variablesRead('const x = "NOT_A_READ"; errorStatus.not_found; Math.PI')).toEqual([]);
  });

  it("has every one of them in docs/operations.md", () => {
    const doc = fs.readFileSync(path.join(root, "docs/operations.md"), "utf8");
    const missing = [...readers]
      .filter(
        ([name]) => !runtimeOnly.has(name) && !doc.includes(`\`${name}\``) && !doc.includes(`\`${name}=`),
      )
      .map(([name, files]) => `${name} (read in ${files.join(", ")})`);
    expect(missing).toEqual([]);
  });
});
