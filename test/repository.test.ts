/**
 * The repository stands alone. Whoever clones it has only the repository — no sibling folder of
 * design notes or checker scripts — so no file may point outside it, in any spelling, and every
 * relative link in the documentation must lead to a file that is really here.
 */
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";

const root = path.resolve(import.meta.dirname, "..");

/** Tracked files plus new ones not yet committed (but not ignored ones), without the lockfile. */
function repositoryFiles(): string[] {
  const out = execFileSync("git", ["ls-files", "-z", "--cached", "--others", "--exclude-standard"], {
    cwd: root,
    encoding: "utf8",
  });
  return [...new Set(out.split("\0"))]
    .filter((f) => f !== "" && f !== "package-lock.json")
    .filter((f) => fs.existsSync(path.join(root, f)) && fs.statSync(path.join(root, f)).isFile());
}

// The outside names are assembled from pieces, so this file does not match its own patterns.
const sibling = ["sha", "red"].join("");
const outsideReferences: { what: string; pattern: RegExp }[] = [
  { what: "a sibling folder by relative path", pattern: new RegExp(`\\.\\.[\\\\/]+${sibling}\\b`, "i") },
  {
    what: "a sibling folder by path segments",
    pattern: new RegExp(`["']\\.\\.["']\\s*,\\s*(?:["']\\.\\.["']\\s*,\\s*)*["']${sibling}["']`, "i"),
  },
  { what: "the outside design notes", pattern: new RegExp(`${sibling}[\\\\/]+DESIGN`, "i") },
  // The design notes lived outside the repository; our own docs are docs/ARCHITECTURE.md and docs/API.md.
  { what: "the outside design notes by name", pattern: new RegExp(`${"DESIGN"}(\\.md| §)`) },
  { what: "the outside contract checker", pattern: new RegExp(["contract", "check"].join("-"), "i") },
  { what: "an absolute path on the authors' machine", pattern: new RegExp(`/${"work"}/`) },
];

describe("the repository stands alone", () => {
  const files = repositoryFiles();

  it("lists the repository's files", () => {
    expect(files).toContain("package.json");
    expect(files).toContain("test/repository.test.ts");
  });

  it("no file refers to anything outside the repository", () => {
    const found: string[] = [];
    for (const file of files) {
      const text = fs.readFileSync(path.join(root, file), "utf8");
      text.split("\n").forEach((line, i) => {
        for (const { what, pattern } of outsideReferences) {
          if (pattern.test(line)) found.push(`${file}:${i + 1}: ${what}: ${line.trim().slice(0, 120)}`);
        }
      });
    }
    expect(found).toEqual([]);
  });

  it("the patterns catch every spelling they are meant to", () => {
    const spellings = [
      `See ../${sibling}/${"DESIGN"}.md`,
      `node ..\\${sibling}\\x.mjs`,
      `path.resolve(dir, "..", "..", "${sibling}", "x.mjs")`,
      `path.join('..', '${sibling}')`,
      `${sibling}/${"DESIGN"}.md`,
      `with ${"DESIGN"} §6 defaults`,
      `${["contract", "check"].join("-")}.mjs`,
      `cd /${"work"}/${sibling}`,
    ];
    for (const s of spellings) {
      expect(
        outsideReferences.some(({ pattern }) => pattern.test(s)),
        s,
      ).toBe(true);
    }
    expect(
      outsideReferences.some(({ pattern }) => pattern.test('import { x } from "../../db/client.ts";')),
    ).toBe(false);
  });

  it("every relative link in the documentation leads to a file in the repository", () => {
    const docs = files.filter((f) => f.endsWith(".md"));
    expect(docs).toContain("README.md");
    const broken: string[] = [];
    for (const doc of docs) {
      // Code (fenced blocks and inline spans) shows syntax, not links.
      const text = fs
        .readFileSync(path.join(root, doc), "utf8")
        .replace(/^```[\s\S]*?^```/gm, "")
        .replace(/`[^`\n]*`/g, "");
      for (const m of text.matchAll(/\]\(([^)\s]+)\)/g)) {
        const target = m[1].split("#")[0];
        if (target === "" || /^[a-z][a-z0-9+.-]*:/i.test(target)) continue; // anchors, http:, mailto:
        const resolved = path.normalize(path.join(path.dirname(doc), target));
        if (resolved.startsWith("..") || !fs.existsSync(path.join(root, resolved))) {
          broken.push(`${doc}: ${m[1]}`);
        }
      }
    }
    expect(broken).toEqual([]);
  });
});
