// The browser talks to the JSON API through one client (components/api-client.ts) and every form
// keeps its busy / error / notice in one hook (components/use-form-state.ts). This test fails when a
// component outside the run, report and share views (which move over on their own) calls fetch
// itself, uses the deprecated aliases, or declares its own busy flag.
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";

const root = path.resolve(import.meta.dirname, "..");
const notYetMoved = /^components\/(run|report|share)\//;

function clientFiles(): string[] {
  const out = execFileSync("git", ["ls-files", "-co", "--exclude-standard", "components", "app"], {
    cwd: root,
    encoding: "utf8",
  });
  return out
    .split("\n")
    .filter((f) => /\.tsx?$/.test(f) && !/\.test\.tsx?$/.test(f) && !notYetMoved.test(f))
    .filter((f) => fs.existsSync(path.join(root, f)));
}

const read = (f: string) => fs.readFileSync(path.join(root, f), "utf8");

describe("one API client and one form-state hook", () => {
  it("reads the client-side files", () => {
    const files = clientFiles();
    expect(files).toContain("components/api-client.ts");
    expect(files).toContain("components/use-form-state.ts");
    expect(files.length).toBeGreaterThan(40);
  });

  it("calls fetch only in the API client", () => {
    const callers = clientFiles().filter((f) => /\bfetch\(/.test(read(f)));
    expect(callers).toEqual(["components/api-client.ts"]);
  });

  it("imports neither deprecated alias (read-response, knowledge/api)", () => {
    const users = clientFiles().filter((f) =>
      /from\s+["'][^"']*(read-response|knowledge\/api)["']/.test(read(f)),
    );
    expect(users).toEqual([]);
  });

  it("keeps busy, error and notice state only in the hook", () => {
    const ownState = /\[(busy|error|notice|testing), set(Busy|Error|Notice|Testing)\]/;
    const own = clientFiles().filter((f) => ownState.test(read(f)));
    expect(own).toEqual(["components/use-form-state.ts"]);
  });
});
