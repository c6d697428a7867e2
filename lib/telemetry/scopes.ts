/**
 * The run's nested scopes, each one span and one log context: run → phase → directive. Whatever
 * runs inside (model calls, searches, fetches, log lines) becomes a child span and carries the
 * run id, the phase and the directive id.
 */
import type { Span } from "@opentelemetry/api";
import { log, withLogContext } from "./log.ts";
import { metrics } from "./metrics.ts";
import { withSpan } from "./tracing.ts";

export function runScope<T>(runId: string, fn: (span: Span) => Promise<T>): Promise<T> {
  return withLogContext({ runId }, () => withSpan("run", { "run.id": runId }, (span) => fn(span)));
}

export function phaseScope<T>(phase: string, fn: () => Promise<T>): Promise<T> {
  return withLogContext({ phase }, () => withSpan(`phase ${phase}`, { "run.phase": phase }, () => fn()));
}

export function directiveScope<T>(
  directive: { id: string; topic?: string },
  fn: () => Promise<T>,
): Promise<T> {
  return withLogContext({ directiveId: directive.id }, () =>
    withSpan("directive", { "directive.id": directive.id }, async () => {
      log("engine").info("directive research started");
      const result = await fn();
      log("engine").info("directive research finished");
      return result;
    }),
  );
}

/** A finished phase: its duration in the histogram and a log line. */
export function phaseCompleted(phase: string, durationMs: number): void {
  metrics().phaseSeconds.observe({ phase }, durationMs / 1000);
  log("engine").info({ phase, durationMs }, "phase completed");
}
