// The guard is process-wide, so it is tried in a child process of its own: with it a stray
// rejection is logged and the process goes on; without it Node ends the process.
import { spawnSync } from "node:child_process";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { describe, expect, it } from "vitest";

const guard = pathToFileURL(path.join(import.meta.dirname, "process-guard.ts")).href;

function child(installGuard: boolean) {
  const code = [
    `import { logUnhandledRejections } from ${JSON.stringify(guard)};`,
    installGuard ? "logUnhandledRejections();" : "",
    'Promise.reject(new Error("a stray rejection"));',
    'setTimeout(() => console.log("still running"), 100);',
  ].join("\n");
  return spawnSync(process.execPath, ["--input-type=module", "-e", code], {
    encoding: "utf8",
    timeout: 20_000,
  });
}

describe("logUnhandledRejections", () => {
  it("logs a stray rejection and keeps the process running", () => {
    const r = child(true);
    expect(r.status).toBe(0);
    expect(r.stdout).toContain("still running");
    // One structured error line (pino, on stdout) naming the rejection.
    const line = r.stdout.split("\n").find((l) => l.includes("unhandled promise rejection"));
    expect(line).toBeDefined();
    const entry = JSON.parse(line as string);
    expect(entry.level).toBe(50);
    expect(entry.err.message).toBe("a stray rejection");
  });

  it("is needed: without it the same rejection ends the process", () => {
    const r = child(false);
    expect(r.status).not.toBe(0);
    expect(r.stdout).not.toContain("still running");
  });
});
