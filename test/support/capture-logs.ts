/**
 * Captures the process's log lines for a test: the root logger is replaced by one writing parsed
 * JSON lines into an array, until `restore()`.
 */
import { Writable } from "node:stream";
import { createLogger, setRootLogger } from "../../lib/telemetry/log.ts";

export interface CapturedLogs {
  lines: Record<string, unknown>[];
  restore(): void;
}

export function captureLogs(level = "info"): CapturedLogs {
  const lines: Record<string, unknown>[] = [];
  const destination = new Writable({
    write(chunk, _enc, done) {
      for (const l of String(chunk).split("\n")) if (l.trim()) lines.push(JSON.parse(l));
      done();
    },
  });
  const previous = setRootLogger(createLogger({ env: { LOG_LEVEL: level }, destination }));
  return { lines, restore: () => void setRootLogger(previous) };
}
