/**
 * Round 0's adaptivity rules, enforced in code whatever the planner returned: a simple factual
 * question gets exactly one directive; a comparison gets exactly one directive per compared
 * element (drafts about the same element are merged, a missing element gets a directive split off
 * a shared draft or patterned on a sibling's); anything else at most `maxDirectives`.
 */
import type { DirectiveDraft } from "../../prompts/supervisor.ts";
import { priorityRank, type QuestionComplexity } from "../../vocabulary.ts";
import { byPriority } from "./directives.ts";

export type QuestionKind = QuestionComplexity;

export interface PlanShape {
  question_kind: QuestionKind;
  compared_elements: string[];
  directives: DirectiveDraft[];
}

/** How the fitting changed the planner's set; carried by the decomposition and revise events. */
export interface FitStats {
  complexity: QuestionKind;
  before: number;
  after: number;
  added: number;
  removed: number;
  merged: number;
}

export interface FittedPlan {
  drafts: DirectiveDraft[];
  stats: FitStats;
}

/** The distinct compared elements, in the planner's order (case-insensitive, blanks dropped). */
export function distinctElements(elements: readonly string[]): string[] {
  const seen = new Set<string>();
  return elements
    .map((e) => e.trim())
    .filter((e) => {
      const key = e.toLowerCase();
      if (!e || seen.has(key)) return false;
      seen.add(key);
      return true;
    });
}

export function fitPlanShape(plan: PlanShape, maxDirectives: number): FittedPlan {
  const drafts = plan.directives.filter((d) => d.topic.trim());
  const elements = distinctElements(plan.compared_elements).slice(0, Math.max(1, maxDirectives));
  const stats = (complexity: QuestionKind, after: number, changes: Partial<FitStats>): FitStats => ({
    complexity,
    before: drafts.length,
    after,
    added: 0,
    removed: 0,
    merged: 0,
    ...changes,
  });
  if (plan.question_kind === "comparison" && elements.length >= 2) {
    const { drafts: fitted, added, merged, removed } = fitComparison(drafts, elements);
    return { drafts: fitted, stats: stats("comparison", fitted.length, { added, merged, removed }) };
  }
  const complexity = plan.question_kind === "comparison" ? "typical" : plan.question_kind;
  const limit = Math.max(1, complexity === "simple_factual" ? 1 : maxDirectives);
  if (drafts.length <= limit) return { drafts, stats: stats(complexity, drafts.length, {}) };
  // Keep the most urgent, in the model's order among themselves.
  const kept = new Set(byPriority(drafts).slice(0, limit));
  const result = drafts.filter((d) => kept.has(d));
  return { drafts: result, stats: stats(complexity, result.length, { removed: drafts.length - limit }) };
}

function mentions(draft: DirectiveDraft, element: string): boolean {
  const text = `${draft.topic} ${draft.perspective}`.toLowerCase();
  return text.includes(element.toLowerCase());
}

/**
 * One directive per element. A draft naming exactly one element belongs to it (several such drafts
 * are merged). A draft naming several elements is split: each named element without a draft of
 * its own gets a copy headed by its name, the others take it as an extra evidence need. A draft
 * naming none is an aspect every element's directive covers. An element nobody named gets a
 * directive patterned on a sibling's.
 */
function fitComparison(
  drafts: readonly DirectiveDraft[],
  elements: readonly string[],
): { drafts: DirectiveDraft[]; added: number; merged: number; removed: number } {
  const own = new Map<string, DirectiveDraft[]>(elements.map((e) => [e, []]));
  const spanning: { draft: DirectiveDraft; named: string[] }[] = [];
  const general: DirectiveDraft[] = [];
  for (const d of drafts) {
    const named = elements.filter((e) => mentions(d, e));
    if (named.length === 1) own.get(named[0])?.push(d);
    else if (named.length) spanning.push({ draft: d, named });
    else general.push(d);
  }
  let added = 0;
  let merged = general.length;
  const extra = new Map<string, DirectiveDraft[]>(elements.map((e) => [e, [...general]]));
  for (const { draft, named } of spanning) {
    const splits = named.filter((e) => !own.get(e)?.length);
    for (const e of splits) own.get(e)?.push({ ...draft, topic: `${e}: ${draft.topic}` });
    for (const e of named.filter((x) => !splits.includes(x))) extra.get(e)?.push(draft);
    // Its first copy continues the draft; every further copy is an added directive.
    if (splits.length) added += splits.length - 1;
    else merged++;
  }
  const pattern = elements.map((e) => ({ element: e, draft: own.get(e)?.[0] })).find((p) => p.draft);
  const result = elements.map((element) => {
    const mine = own.get(element) ?? [];
    merged += Math.max(0, mine.length - 1);
    if (!mine.length) added++;
    const base = mine.length ? mergeDrafts(mine) : patternedOn(element, pattern);
    return withExtras(base, extra.get(element) ?? []);
  });
  return { drafts: result, added, merged, removed: 0 };
}

/** Several drafts about one element become one: the first's topic, every evidence need, the top priority. */
function mergeDrafts(drafts: readonly DirectiveDraft[]): DirectiveDraft {
  if (drafts.length === 1) return drafts[0];
  const [first, ...rest] = drafts;
  return {
    topic: first.topic,
    perspective: first.perspective,
    evidence_needed: joinNeeds([
      first.evidence_needed,
      ...rest.map((d) => `${d.topic}: ${d.evidence_needed}`),
    ]),
    priority: byPriority(drafts)[0].priority,
  };
}

/** A directive for an element no draft named: a sibling's with the element's name swapped in. */
function patternedOn(
  element: string,
  pattern: { element: string; draft?: DirectiveDraft } | undefined,
): DirectiveDraft {
  if (!pattern?.draft) return { topic: element, perspective: "", evidence_needed: "", priority: "normal" };
  const swap = (text: string) => text.replace(new RegExp(escapeRegExp(pattern.element), "gi"), element);
  const topic = swap(pattern.draft.topic);
  return {
    topic: topic.toLowerCase().includes(element.toLowerCase()) ? topic : `${element}: ${topic}`,
    perspective: swap(pattern.draft.perspective),
    evidence_needed: swap(pattern.draft.evidence_needed),
    priority: pattern.draft.priority,
  };
}

/** Folded drafts join the directive's evidence needs; the most urgent priority among them wins. */
function withExtras(draft: DirectiveDraft, extras: readonly DirectiveDraft[]): DirectiveDraft {
  if (!extras.length) return draft;
  const aspects = extras.map(
    (s) => `Also cover: ${s.topic}${s.evidence_needed ? ` (${s.evidence_needed})` : ""}`,
  );
  const top = [draft, ...extras].reduce((a, b) =>
    priorityRank(b.priority) < priorityRank(a.priority) ? b : a,
  );
  return {
    ...draft,
    evidence_needed: joinNeeds([draft.evidence_needed, ...aspects]),
    priority: top.priority,
  };
}

function joinNeeds(parts: readonly string[]): string {
  return parts
    .map((p) => p.trim())
    .filter(Boolean)
    .join("\n");
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}
