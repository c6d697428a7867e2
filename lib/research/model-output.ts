/**
 * Checks and repairs of a model's structured answer, applied after parsing. The schemas a model is
 * sent carry no length, numeric or item-count keywords (not every provider accepts them: see
 * model-schemas.ts), so what those keywords said lives here instead, as zod transforms and
 * refinements that the JSON Schema sent to the provider never shows: a slightly-off answer is
 * repaired (an empty topic dropped, an over-long text cut, a number clamped or rounded), and only
 * an unusable one is refused and re-asked.
 */
import { z } from "zod";

/** `text` without surrounding space, cut to `max` characters (the last one an ellipsis). */
export function cutText(text: string, max: number): string {
  const trimmed = text.trim();
  return trimmed.length > max ? `${trimmed.slice(0, max - 1).trimEnd()}…` : trimmed;
}

/** A number inside [min, max]. */
export function clamp(n: number, min: number, max: number): number {
  return Math.min(max, Math.max(min, n));
}

/** Items whose `topic` has text, with the topic trimmed. */
export function withTopics<T extends { topic: string }>(items: readonly T[]): T[] {
  return items.flatMap((item) => {
    const topic = item.topic.trim();
    return topic ? [{ ...item, topic }] : [];
  });
}

/** Non-empty strings, trimmed. */
export function nonBlank(items: readonly string[]): string[] {
  return items.map((s) => s.trim()).filter(Boolean);
}

/** A string the model must fill: blank is refused (the SDK reports it to the model as an invalid call). */
export const filledText = (what: string) =>
  z.string().refine((s) => s.trim().length > 0, `${what} must not be empty`);

/** A string trimmed and cut to `max` characters. */
export const boundedText = (max: number) => z.string().transform((s) => cutText(s, max));

/** A share between 0 and 1 (a confidence, a coverage). */
export const share = () => z.number().transform((n) => clamp(n, 0, 1));

/** A whole number (an id, an ordinal): rounded. zod's integer types carry hidden ±2^53−1 bounds. */
export const wholeNumber = () => z.number().transform((n) => Math.round(n));
