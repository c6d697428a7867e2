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

/** Markdown without its code: fenced blocks and inline spans show syntax, not links or headings. */
function withoutCode(text: string): string {
  return text
    .replace(/^```[\s\S]*?^```/gm, "")
    .replace(/`[^`\n]*`/g, (span) => span.replace(/[[\]()]/g, " "));
}

const readDoc = (doc: string) => withoutCode(fs.readFileSync(path.join(root, doc), "utf8"));

/** Links to files in the repository or to headings, not to other sites (http:, mailto:). */
function relativeLinks(text: string): string[] {
  const targets = [...text.matchAll(/\]\(([^)\s]+)\)/g)].map((m) => m[1]);
  return targets.filter((t) => !/^[a-z][a-z0-9+.-]*:/i.test(t.split("#")[0]));
}

/** The anchors GitHub gives a document's headings: lower case, punctuation dropped, spaces as dashes. */
function headingAnchors(text: string): Set<string> {
  const seen = new Map<string, number>();
  const anchors = new Set<string>();
  for (const m of text.matchAll(/^#{1,6}\s+(.+?)\s*#*$/gm)) {
    const slug = m[1]
      .toLowerCase()
      .replace(/[^\p{L}\p{N}\s_-]/gu, "")
      .replace(/\s/g, "-");
    const n = seen.get(slug) ?? 0;
    seen.set(slug, n + 1);
    anchors.add(n === 0 ? slug : `${slug}-${n}`);
  }
  return anchors;
}

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

  it("every relative link in the documentation leads to a file in the repository, and to a heading in it", () => {
    const docs = files.filter((f) => f.endsWith(".md"));
    expect(docs).toContain("README.md");
    expect(docs).toContain("docs/operations.md");
    const broken: string[] = [];
    for (const doc of docs) {
      for (const link of relativeLinks(readDoc(doc))) {
        const [target, anchor] = link.split("#");
        const resolved = target === "" ? doc : path.normalize(path.join(path.dirname(doc), target));
        if (resolved.startsWith("..") || !fs.existsSync(path.join(root, resolved))) {
          broken.push(`${doc}: ${link}`);
        } else if (anchor && resolved.endsWith(".md") && !headingAnchors(readDoc(resolved)).has(anchor)) {
          broken.push(`${doc}: ${link} (no such heading)`);
        }
      }
    }
    expect(broken).toEqual([]);
  });

  it("keeps the README short: details live in docs/", () => {
    const readme = fs.readFileSync(path.join(root, "README.md"), "utf8");
    expect(readme.split("\n").length).toBeLessThanOrEqual(200);
    for (const page of ["docs/operations.md", "docs/development.md", "docs/usage.md", "docs/API.md"]) {
      expect(readme).toContain(`](${page})`);
    }
  });

  it("reads links and headings as GitHub renders them", () => {
    const text =
      "# A\n## `lib/research` — the engine\n## Behind a reverse proxy (TLS)\n## A\n```\n# not a heading\n```\n";
    expect([...headingAnchors(withoutCode(text))]).toEqual([
      "a",
      "libresearch--the-engine",
      "behind-a-reverse-proxy-tls",
      "a-1",
    ]);
    expect(
      relativeLinks(withoutCode("[x](docs/a.md#b) [y](#c) [z](https://e.org) `[c](d.md)` [m](mailto:a@b.c)")),
    ).toEqual(["docs/a.md#b", "#c"]);
  });
});
