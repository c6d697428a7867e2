/**
 * The settings page's Test goes one step past "the key works": one structured output and one tool
 * call with the schemas runs send, so a provider (or a local server) that refuses them says so on
 * the settings page, in its own words, before a run falls back because of it. An answer that does
 * not parse still counts as accepted: the request is what a provider refuses.
 *
 * @internal to lib/server/settings/: a helper of its actions, not an action; adapters do not import it.
 */
import { generateText, NoObjectGeneratedError, NoOutputGeneratedError } from "ai";
import type { LanguageModelInstance } from "../../ai/providers.ts";
import { outputFor } from "../../ai/structured.ts";
import { modelTools, structuredOutputSchemas } from "../../research/index.ts";

/** The richest of the run's schemas: numbers, enums, nested arrays of objects. */
const PROBE_SCHEMA = "coverage_assessment";

export interface SchemaRefusal {
  /** What was refused, in words for the settings page. */
  what: string;
  error: unknown;
}

const unparsed = (e: unknown) => NoObjectGeneratedError.isInstance(e) || NoOutputGeneratedError.isInstance(e);

/** The first of the two calls the provider refused, or undefined when it took both. */
export async function probeSchemas(
  model: LanguageModelInstance,
  signal: AbortSignal,
): Promise<SchemaRefusal | undefined> {
  const common = { model, maxOutputTokens: 300, maxRetries: 0, abortSignal: signal };
  try {
    await generateText({
      ...common,
      prompt: "This is a connection test. Answer with an assessment of no directives and no follow-ups.",
      output: outputFor(structuredOutputSchemas[PROBE_SCHEMA], PROBE_SCHEMA),
    });
  } catch (error) {
    if (!unparsed(error)) return { what: `a structured output (the run's ${PROBE_SCHEMA} schema)`, error };
  }
  try {
    await generateText({
      ...common,
      prompt: "This is a connection test. Call the think tool once with the reflection: testing.",
      tools: modelTools,
    });
  } catch (error) {
    if (!unparsed(error)) return { what: "a tool call (the researcher's tools)", error };
  }
  return undefined;
}
