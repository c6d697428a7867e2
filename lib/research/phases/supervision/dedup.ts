/**
 * Near-duplicate and vagueness checks for new directives. The store already refuses exact
 * duplicates (normalised text); these catch the rewordings a model produces when it asks for the
 * same research twice, and follow-ups that are vaguer than what was already researched.
 */

import { type Because, because } from "../../because.ts";

/** Token-set Jaccard at or above this means "the same directive, reworded". */
export const NEAR_DUPLICATE_JACCARD = 0.8;
/** A follow-up with fewer content tokens than this is too vague to send a researcher after. */
export const MIN_FOLLOW_UP_TOKENS = 4;
/** Share of a follow-up's tokens already in one earlier directive that makes it a restatement. */
export const RESTATEMENT_CONTAINMENT = 0.8;

// Function words that make two topics look different without changing what is asked.
const STOP_WORDS = new Set(
  (
    "a an and are as at be by for from how in into is it its of on or that the their this to was what " +
    "when where which who why with about between across over under per vs versus do does did can " +
    "should would could will than then these those there also such any all each more most other"
  ).split(" "),
);

// Scripts written without spaces: a run of them becomes character bigrams so overlap still means something.
const UNSPACED = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}\p{Script=Thai}]/u;
// Their commonest particles and conjunctions (Chinese, Japanese), dropped before bigramming like stop words.
const UNSPACED_PARTICLES = /[的了和与及或之是在をのにはがとでも]/gu;

/** Content tokens of a topic: lower-cased, NFKC, punctuation-free, without function words. */
export function topicTokens(text: string): Set<string> {
  const out = new Set<string>();
  const words =
    text
      .normalize("NFKC")
      .toLowerCase()
      .match(/[\p{L}\p{N}]+/gu) ?? [];
  for (const word of words) {
    if (UNSPACED.test(word)) {
      const chars = [...word.replace(UNSPACED_PARTICLES, "")];
      if (chars.length === 1) out.add(word);
      for (let i = 0; i + 1 < chars.length; i++) out.add(chars[i] + chars[i + 1]);
      continue;
    }
    if (word.length < 2 && !/\p{N}/u.test(word)) continue;
    if (STOP_WORDS.has(word)) continue;
    out.add(word);
  }
  return out;
}

export function jaccard(a: ReadonlySet<string>, b: ReadonlySet<string>): number {
  if (a.size === 0 && b.size === 0) return 1;
  let shared = 0;
  for (const t of a) if (b.has(t)) shared++;
  return shared / (a.size + b.size - shared);
}

/** Share of `a`'s tokens that also occur in `b`. */
export function containment(a: ReadonlySet<string>, b: ReadonlySet<string>): number {
  if (a.size === 0) return 1;
  let shared = 0;
  for (const t of a) if (b.has(t)) shared++;
  return shared / a.size;
}

export interface ExistingTopic {
  id: string;
  topic: string;
}

export type TopicRejection =
  | { kind: "near_duplicate"; duplicateOf: string; similarity: number }
  | { kind: "restatement"; similarTo: string; containment: number }
  | { kind: "too_vague"; tokens: number };

/** The earlier topic this one nearly duplicates (highest similarity ≥ threshold), if any. */
export function findNearDuplicate(
  topic: string,
  existing: readonly ExistingTopic[],
  threshold = NEAR_DUPLICATE_JACCARD,
): { id: string; similarity: number } | undefined {
  const tokens = topicTokens(topic);
  let best: { id: string; similarity: number } | undefined;
  for (const e of existing) {
    const similarity = jaccard(tokens, topicTokens(e.topic));
    if (similarity >= threshold && (!best || similarity > best.similarity)) best = { id: e.id, similarity };
  }
  return best;
}

/**
 * Why a follow-up must not become a directive, or undefined when it may. A follow-up has to be more
 * specific than what was already researched: not a near-duplicate of an earlier directive, not a
 * restatement (its tokens mostly inside one earlier directive while adding no more detail than it),
 * and not so short that a researcher could not tell what evidence to look for.
 */
export function rejectFollowUp(
  topic: string,
  existing: readonly ExistingTopic[],
): TopicRejection | undefined {
  const dup = findNearDuplicate(topic, existing);
  if (dup) return { kind: "near_duplicate", duplicateOf: dup.id, similarity: dup.similarity };
  const tokens = topicTokens(topic);
  if (tokens.size < MIN_FOLLOW_UP_TOKENS) return { kind: "too_vague", tokens: tokens.size };
  for (const e of existing) {
    const other = topicTokens(e.topic);
    const share = containment(tokens, other);
    if (share >= RESTATEMENT_CONTAINMENT && tokens.size <= other.size) {
      return { kind: "restatement", similarTo: e.id, containment: share };
    }
  }
  return undefined;
}

/** The rejection as a code with its values, for readers in other languages (beside describeRejection). */
export function rejectionBecause(r: TopicRejection): Because {
  switch (r.kind) {
    case "near_duplicate":
      return because("reject_near_duplicate", { similarity: Math.round(r.similarity * 100) / 100 });
    case "restatement":
      return because("reject_restatement", { share: Math.round(r.containment * 100) / 100 });
    case "too_vague":
      return because("reject_too_vague", { terms: r.tokens });
  }
}

export function describeRejection(r: TopicRejection): string {
  switch (r.kind) {
    case "near_duplicate":
      return `near-duplicate of another directive (similarity ${r.similarity.toFixed(2)})`;
    case "restatement":
      return `no more specific than another directive (${Math.round(r.containment * 100)}% of its terms already covered)`;
    case "too_vague":
      return `too vague to research (${r.tokens} content terms)`;
  }
}
