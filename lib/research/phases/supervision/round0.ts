/**
 * Supervision round 0, the decomposition: generate directives → critique them on redundancy,
 * coverage, proportionality and specificity → revise only when the critique found an issue →
 * store. Every model failure has a fallback: no plan → the brief as the single directive; no
 * critique or no revision → the generated set.
 */
import { z } from "zod";
import type { NamedSchema } from "../../../ai/structured.ts";
import { because } from "../../because.ts";
import { recordDegradation } from "../../degradations.ts";
import type { EngineDeps } from "../../deps.ts";
import { recoverableMessage } from "../../errors.ts";
import { nonBlank, withTopics } from "../../model-output.ts";
import {
  critiquePrompt,
  type DirectiveDraft,
  generateDirectivesPrompt,
  revisePrompt,
  SUPERVISOR_INSTRUCTIONS,
} from "../../prompts/supervisor.ts";
import type { DirectiveRecord } from "../../store.ts";
import { directivePriorities } from "../../vocabulary.ts";
import { type DirectiveCandidate, storeDirectives } from "./directives.ts";
import { type FitStats, fitPlanShape, type QuestionKind } from "./plan-fit.ts";

const priority = z.enum(directivePriorities);

export const directiveDraftSchema = z.object({
  // A short line for lists; cleaned and cut after parsing (directive-title.ts), the topic's start when empty.
  title: z.string(),
  topic: z.string(),
  perspective: z.string(),
  evidence_needed: z.string(),
  priority,
});

export const directivePlanSchema = z.object({
  question_kind: z.enum(["simple_factual", "comparison", "typical"]),
  compared_elements: z.array(z.string()).transform(nonBlank),
  // A draft without a topic is dropped; a plan left with none is re-asked.
  directives: z
    .array(directiveDraftSchema)
    .transform(withTopics)
    .refine((d) => d.length > 0, "give at least one directive with a topic"),
});
export type DirectivePlan = z.infer<typeof directivePlanSchema>;

const criterion = z.object({ status: z.enum(["PASS", "ISSUE"]), note: z.string() });
export const critiqueSchema = z.object({
  redundancy: criterion,
  coverage: criterion,
  proportionality: criterion,
  specificity: criterion,
  verdict: z.string(),
});
export type Critique = z.infer<typeof critiqueSchema>;

export const CRITERIA = ["redundancy", "coverage", "proportionality", "specificity"] as const;

export function formatCritique(c: Critique): string {
  return [...CRITERIA.map((k) => `- ${k}: ${c[k].status} — ${c[k].note}`), `Verdict: ${c.verdict}`].join(
    "\n",
  );
}

const toCandidate =
  (rationale: string) =>
  (d: DirectiveDraft): DirectiveCandidate => ({
    topic: d.topic,
    title: d.title,
    perspective: d.perspective.trim() || null,
    evidenceNeeded: d.evidence_needed.trim() || null,
    priority: d.priority,
    rationale,
  });

/** The planner's classification, kept for the revision: the rules fit both sets to the same shape. */
interface Classification {
  question_kind: QuestionKind;
  compared_elements: string[];
}

function rationaleOf(kind: Classification | null, stats: FitStats | null): string {
  if (!kind || !stats) return "Round 0 fallback: the brief researched as a single directive.";
  if (stats.complexity === "comparison") {
    return `Round 0 decomposition of a comparison: one directive per compared element (${kind.compared_elements.join(", ")}).`;
  }
  if (stats.complexity === "simple_factual")
    return "Round 0 decomposition of a simple factual question: one directive.";
  return "Round 0 decomposition of the brief into complementary directives.";
}

/** Sums two fits' changes: the generation's and the revision's. */
function addStats(a: FitStats, b: FitStats | undefined): FitStats {
  if (!b) return a;
  return {
    ...a,
    after: b.after,
    added: a.added + b.added,
    removed: a.removed + b.removed,
    merged: a.merged + b.merged,
  };
}

export interface RoundZeroPlan {
  created: DirectiveRecord[];
  initialCount: number;
  finalCount: number;
  revised: boolean;
  /** What goes into round 0's `assessment` column: the critique and how the plan came about. */
  record: Record<string, unknown>;
}

export async function planRoundZero(
  deps: EngineDeps,
  input: { brief: string; knowledge: string; prior?: string },
): Promise<RoundZeroPlan> {
  const { config } = deps;
  const maxDirectives = Math.max(1, Math.min(config.maxConcurrentResearchers, config.maxDirectivesTotal));
  const record: Record<string, unknown> = { questionKind: null, comparedElements: [] };
  let drafts: DirectiveDraft[];
  let revised = false;
  let kind: Classification | null = null;
  let fit: FitStats | null = null;

  const generated = await askObject(deps, { schema: directivePlanSchema, schemaName: "directive_plan" }, () =>
    generateDirectivesPrompt({
      brief: input.brief,
      maxDirectives,
      knowledge: input.knowledge,
      prior: input.prior,
    }),
  );
  if (!generated.ok) {
    drafts = [{ topic: input.brief, perspective: "", evidence_needed: "", priority: "normal" }];
    record.generationFailed = generated.error;
    await recordDegradation(deps, { step: "planner", role: "supervisor", error: generated.cause });
    await deps.events.emit({
      type: "supervision.first_round_generate",
      count: 1,
      topics: [input.brief],
      fallback: true,
      reason: `directive generation failed (${generated.error}); researching the brief as one directive`,
      because: because("plan_generation_failed", { said: generated.error }),
    });
    await deps.events.emit({
      type: "supervision.first_round_revise",
      skipped: true,
      reason: "nothing to critique: generation failed",
      because: because("plan_nothing_to_critique"),
    });
  } else {
    kind = {
      question_kind: generated.value.question_kind,
      compared_elements: generated.value.compared_elements,
    };
    const fitted = fitPlanShape(generated.value, maxDirectives);
    drafts = fitted.drafts;
    fit = fitted.stats;
    record.questionKind = kind.question_kind;
    record.comparedElements = kind.compared_elements;
    // Written while the critique's model call is out.
    await deps.events.emit({
      type: "supervision.first_round_generate",
      count: drafts.length,
      topics: drafts.map((d) => d.topic),
    });
    const outcome = await critiqueAndRevise(deps, input.brief, drafts, maxDirectives, kind);
    record.critique = outcome.critique;
    if (outcome.revisedDrafts) {
      drafts = outcome.revisedDrafts;
      revised = true;
    }
    fit = addStats(fit, outcome.fit);
  }
  const initialCount = fit?.before ?? 1;

  const { created } = await storeDirectives(deps, drafts.map(toCandidate(rationaleOf(kind, fit))), {
    round: 0,
    followUps: false,
    maxNew: maxDirectives,
    cap: "researchers",
    distinctCandidates: fit?.complexity === "comparison",
  });
  const changes = {
    complexity: fit?.complexity ?? ("typical" as const),
    added: fit?.added ?? 0,
    removed: fit?.removed ?? 0,
    merged: fit?.merged ?? 0,
  };
  await deps.events.emit({
    type: "supervision.first_round_decomposition",
    initialCount,
    finalCount: created.length,
    revised,
    ...changes,
  });
  Object.assign(record, { initialCount, finalCount: created.length, revised, ...changes });
  return { created, initialCount, finalCount: created.length, revised, record };
}

async function critiqueAndRevise(
  deps: EngineDeps,
  brief: string,
  drafts: DirectiveDraft[],
  maxDirectives: number,
  kind: Classification,
): Promise<{ critique: Record<string, unknown> | null; revisedDrafts?: DirectiveDraft[]; fit?: FitStats }> {
  const critique = await askObject(
    deps,
    { schema: critiqueSchema, schemaName: "decomposition_critique" },
    () => critiquePrompt({ brief, drafts, maxDirectives }),
  );
  if (!critique.ok) {
    await deps.events.emit({
      type: "supervision.first_round_critique",
      criteria: {
        redundancy: "UNCHECKED",
        coverage: "UNCHECKED",
        proportionality: "UNCHECKED",
        specificity: "UNCHECKED",
      },
      verdict: `critique unavailable: ${critique.error}`,
      failed: true,
    });
    await deps.events.emit({
      type: "supervision.first_round_revise",
      skipped: true,
      reason: "critique failed; keeping the generated directives",
      because: because("plan_critique_failed"),
    });
    return { critique: { failed: critique.error } };
  }
  const c = critique.value;
  // Written while the revision's model call is out, when there is one.
  await deps.events.emit({
    type: "supervision.first_round_critique",
    criteria: {
      redundancy: c.redundancy.status,
      coverage: c.coverage.status,
      proportionality: c.proportionality.status,
      specificity: c.specificity.status,
    },
    verdict: c.verdict,
    notes: Object.fromEntries(CRITERIA.map((k) => [k, c[k].note])),
  });
  const issues = CRITERIA.filter((k) => c[k].status === "ISSUE");
  if (!issues.length) {
    await deps.events.emit({
      type: "supervision.first_round_revise",
      skipped: true,
      reason: "every criterion passed",
      because: because("plan_all_passed"),
    });
    return { critique: c };
  }
  const revision = await askObject(
    deps,
    { schema: directivePlanSchema, schemaName: "directive_revision" },
    () => revisePrompt({ brief, drafts, critique: formatCritique(c), maxDirectives }),
  );
  if (!revision.ok) {
    await deps.events.emit({
      type: "supervision.first_round_revise",
      skipped: true,
      reason: `revision failed (${revision.error}); keeping the generated directives`,
      because: because("plan_revision_failed", { said: revision.error }),
    });
    return { critique: { ...c, revisionFailed: revision.error } };
  }
  // The revision is held to the generation's classification: a critique may not undo the rules.
  const fitted = fitPlanShape({ ...revision.value, ...kind }, maxDirectives);
  const revisedDrafts = fitted.drafts;
  const previous = new Set(drafts.map((d) => d.topic.trim().toLowerCase()));
  const next = new Set(revisedDrafts.map((d) => d.topic.trim().toLowerCase()));
  await deps.events.emit({
    type: "supervision.first_round_revise",
    skipped: false,
    count: revisedDrafts.length,
    reason: `issues with ${issues.join(", ")}`,
    // A count: the critique event before this one names the criteria in the reader's words.
    because: because("plan_issues_found", { count: issues.length }),
    before: drafts.length,
    after: revisedDrafts.length,
    added: [...next].filter((t) => !previous.has(t)).length,
    removed: [...previous].filter((t) => !next.has(t)).length,
    merged: fitted.stats.merged,
    complexity: fitted.stats.complexity,
  });
  return { critique: c, revisedDrafts, fit: { ...fitted.stats, before: drafts.length } };
}

/** A structured supervisor call whose failure (bad answers or a non-fatal error) becomes a value. */
async function askObject<T>(
  deps: EngineDeps,
  output: NamedSchema<T>,
  prompt: () => string,
): Promise<{ ok: true; value: T } | { ok: false; error: string; cause: unknown }> {
  try {
    const r = await deps.models.object("supervisor", {
      instructions: SUPERVISOR_INSTRUCTIONS,
      prompt: prompt(),
      ...output,
      abortSignal: deps.signal,
    });
    return r.ok ? { ok: true, value: r.value } : { ok: false, error: r.error.message, cause: r.error };
  } catch (e) {
    return { ok: false, error: recoverableMessage(e, deps.signal), cause: e };
  }
}
