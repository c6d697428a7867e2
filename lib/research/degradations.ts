/**
 * A step that fell back instead of doing its work — the plan to a single directive, a coverage
 * assessment to the heuristic, the citation check to "unchecked", knowledge extraction to nothing —
 * is recorded on the run with why: which step, which model, what the provider said. The run keeps
 * one record per step (and round), so a resumed attempt that falls back again adds none; the run
 * JSON lists them as `degradations` and the run page shows each notice.
 */
import { ContextWindowError } from "../ai/context-errors.ts";
import { ModelCallError } from "../ai/errors.ts";
import type { Role } from "../ai/roles.ts";
import { StructuredOutputError } from "../ai/structured.ts";
import type { EngineDeps } from "./deps.ts";
import { isFatalEngineError } from "./errors.ts";
import type { DegradationStep } from "./vocabulary.ts";

/** What the model did, as data: the run page says it in the reader's language. */
export type DegradationCause =
  | { kind: "unusable"; attempts: number }
  | { kind: "context" }
  | { kind: "refused"; status: number }
  | { kind: "failed"; status: number | null; attempts: number };

export interface Degradation {
  step: DegradationStep;
  /** The supervision round, for a step that runs once per round; null otherwise. */
  round: number | null;
  /** `provider:model` that failed, when a model did. */
  model: string | null;
  /** What the provider said (or why its answer could not be used). */
  error: string;
  /** What the model did (absent on records from before it was kept). */
  cause?: DegradationCause;
  /** One plain English sentence (the API's; the run page says it from the parts above). */
  notice: string;
  /** When it happened (ISO 8601). */
  at: string;
}

/** What the step fell back to, as the start of its notice. */
const fallbackOf: Record<DegradationStep, (round: number | null) => string> = {
  planner: () => "The research plan fell back to a single directive",
  coverage_assessment: (round) => `Coverage after round ${round ?? "?"} was judged by the heuristic`,
  citation_check: () => "Citations were not checked",
  knowledge: () => "No knowledge was extracted",
};

const MAX_ERROR_CHARS = 300;

/** The provider's own words: the cause of a failed call rather than our wrapper around it. */
function providerMessage(error: unknown): string {
  if (error instanceof StructuredOutputError) return error.issues;
  if (error instanceof ModelCallError && error.cause instanceof Error) return error.cause.message;
  return error instanceof Error ? error.message : String(error);
}

/** What the model did. */
function causeOf(error: unknown): DegradationCause {
  if (error instanceof StructuredOutputError) return { kind: "unusable", attempts: error.attempts };
  if (error instanceof ContextWindowError) return { kind: "context" };
  if (error instanceof ModelCallError) {
    const status = error.statusCode;
    if (status !== undefined && status >= 400 && status < 500) return { kind: "refused", status };
    return { kind: "failed", status: status ?? null, attempts: error.attempts };
  }
  return { kind: "failed", status: null, attempts: 1 };
}

/** The cause in a few English words ("refused the request (HTTP 400)"). */
function whatHappened(cause: DegradationCause): string {
  switch (cause.kind) {
    case "unusable":
      return `gave no usable answer after ${cause.attempts} tries`;
    case "context":
      return "could not take the input (too long for its context window)";
    case "refused":
      return `refused the request (HTTP ${cause.status})`;
    case "failed": {
      const tries = cause.attempts > 1 ? ` after ${cause.attempts} attempts` : "";
      return `failed${cause.status ? ` (HTTP ${cause.status})` : ""}${tries}`;
    }
  }
}

function modelOf(error: unknown): string | undefined {
  if (error instanceof StructuredOutputError || error instanceof ModelCallError) return error.model;
  if (error instanceof ContextWindowError) return error.model;
  return undefined;
}

/** The record of a fallback: the step, the model (from the error, else the role's), the provider's words. */
export function describeDegradation(input: {
  step: DegradationStep;
  round?: number;
  error: unknown;
  /** The model the step asked, when the error does not name one. */
  model?: string;
  at: Date;
}): Degradation {
  const round = input.round ?? null;
  const model = modelOf(input.error) ?? input.model ?? null;
  const said = providerMessage(input.error).replace(/\s+/g, " ").trim();
  const error = said.length > MAX_ERROR_CHARS ? `${said.slice(0, MAX_ERROR_CHARS - 1)}…` : said;
  const who = model ?? "the model";
  const cause = causeOf(input.error);
  const notice = `${fallbackOf[input.step](round)}: ${who} ${whatHappened(cause)}${error ? ` — ${error}` : ""}`;
  return { step: input.step, round, model, error, cause, notice, at: input.at.toISOString() };
}

/**
 * Records a step's fallback on the run (once per step and round) and announces it with
 * `run.degraded`. Cancellation, an exhausted budget and a configuration gap are not a model's
 * failure: they are left to the caller, unrecorded.
 */
export async function recordDegradation(
  deps: Pick<EngineDeps, "store" | "events" | "clock" | "signal" | "models">,
  input: { step: DegradationStep; round?: number; role: Role; error: unknown },
): Promise<void> {
  if (isFatalEngineError(input.error, deps.signal)) return;
  const d = describeDegradation({
    ...input,
    model: deps.models.registry.spec(input.role).id,
    at: new Date(deps.clock.now()),
  });
  if (await deps.store.addDegradation(d)) {
    const { at: _at, ...event } = d;
    await deps.events.emit({ type: "run.degraded", ...event });
  }
}
