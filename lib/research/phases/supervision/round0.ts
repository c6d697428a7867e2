/**
 * Supervision round 0, the decomposition: generate directives → critique them on redundancy,
 * coverage, proportionality and specificity → revise only when the critique found an issue →
 * store. Every model failure has a fallback: no plan → the brief as the single directive; no
 * critique or no revision → the generated set.
 */
import { z } from "zod";
import type { EngineDeps } from "../../deps.ts";
import { recoverableMessage } from "../../errors.ts";
import {
  critiquePrompt,
  type DirectiveDraft,
  generateDirectivesPrompt,
  revisePrompt,
  SUPERVISOR_INSTRUCTIONS,
} from "../../prompts/supervisor.ts";
import type { DirectiveRecord } from "../../store.ts";
import { directivePriorities } from "../../vocabulary.ts";
import { byPriority, type DirectiveCandidate, storeDirectives } from "./directives.ts";

const priority = z.enum(directivePriorities);

export const directiveDraftSchema = z.object({
  topic: z.string().min(1),
  perspective: z.string(),
  evidence_needed: z.string(),
  priority,
});

export const directivePlanSchema = z.object({
  question_kind: z.enum(["simple_factual", "comparison", "typical"]),
  compared_elements: z.array(z.string()),
  directives: z.array(directiveDraftSchema).min(1),
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

/**
 * Enforces the count rules the prompt states, whatever the model returned: a simple factual
 * question gets one directive, nothing gets more than `maxDirectives`. Drops the lowest priorities
 * and keeps the model's order among the rest.
 */
export function fitPlan(plan: DirectivePlan, maxDirectives: number): DirectiveDraft[] {
  const drafts = plan.directives.filter((d) => d.topic.trim());
  const limit = Math.max(1, plan.question_kind === "simple_factual" ? 1 : maxDirectives);
  if (drafts.length <= limit) return drafts;
  const kept = new Set(byPriority(drafts).slice(0, limit));
  return drafts.filter((d) => kept.has(d));
}

export function formatCritique(c: Critique): string {
  return [...CRITERIA.map((k) => `- ${k}: ${c[k].status} — ${c[k].note}`), `Verdict: ${c.verdict}`].join(
    "\n",
  );
}

const toCandidate = (d: DirectiveDraft): DirectiveCandidate => ({
  topic: d.topic,
  perspective: d.perspective.trim() || null,
  evidenceNeeded: d.evidence_needed.trim() || null,
  priority: d.priority,
});

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
  input: { brief: string; knowledge: string },
): Promise<RoundZeroPlan> {
  const { config } = deps;
  const maxDirectives = Math.max(1, Math.min(config.maxConcurrentResearchers, config.maxDirectivesTotal));
  const record: Record<string, unknown> = { questionKind: null, comparedElements: [] };
  let drafts: DirectiveDraft[];
  let revised = false;

  const generated = await askObject(deps, directivePlanSchema, "directive_plan", () =>
    generateDirectivesPrompt({ brief: input.brief, maxDirectives, knowledge: input.knowledge }),
  );
  if (!generated.ok) {
    drafts = [{ topic: input.brief, perspective: "", evidence_needed: "", priority: "normal" }];
    record.generationFailed = generated.error;
    await deps.events.emit({
      type: "supervision.first_round_generate",
      count: 1,
      topics: [input.brief],
      fallback: true,
      reason: `directive generation failed (${generated.error}); researching the brief as one directive`,
    });
    await deps.events.emit({
      type: "supervision.first_round_revise",
      skipped: true,
      reason: "nothing to critique: generation failed",
    });
  } else {
    drafts = fitPlan(generated.value, maxDirectives);
    record.questionKind = generated.value.question_kind;
    record.comparedElements = generated.value.compared_elements;
    await deps.events.emit({
      type: "supervision.first_round_generate",
      count: drafts.length,
      topics: drafts.map((d) => d.topic),
    });
    const outcome = await critiqueAndRevise(deps, input.brief, drafts, maxDirectives);
    record.critique = outcome.critique;
    if (outcome.revisedDrafts) {
      drafts = outcome.revisedDrafts;
      revised = true;
    }
  }
  const initialCount = generated.ok ? fitPlan(generated.value, maxDirectives).length : 1;

  const { created } = await storeDirectives(deps, drafts.map(toCandidate), {
    round: 0,
    followUps: false,
    maxNew: maxDirectives,
    capName: "limit of concurrent researchers",
  });
  await deps.events.emit({
    type: "supervision.first_round_decomposition",
    initialCount,
    finalCount: created.length,
    revised,
  });
  Object.assign(record, { initialCount, finalCount: created.length, revised });
  return { created, initialCount, finalCount: created.length, revised, record };
}

async function critiqueAndRevise(
  deps: EngineDeps,
  brief: string,
  drafts: DirectiveDraft[],
  maxDirectives: number,
): Promise<{ critique: Record<string, unknown> | null; revisedDrafts?: DirectiveDraft[] }> {
  const critique = await askObject(deps, critiqueSchema, "decomposition_critique", () =>
    critiquePrompt({ brief, drafts, maxDirectives }),
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
    });
    return { critique: { failed: critique.error } };
  }
  const c = critique.value;
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
    });
    return { critique: c };
  }
  const revision = await askObject(deps, directivePlanSchema, "directive_revision", () =>
    revisePrompt({ brief, drafts, critique: formatCritique(c), maxDirectives }),
  );
  if (!revision.ok) {
    await deps.events.emit({
      type: "supervision.first_round_revise",
      skipped: true,
      reason: `revision failed (${revision.error}); keeping the generated directives`,
    });
    return { critique: { ...c, revisionFailed: revision.error } };
  }
  const revisedDrafts = fitPlan(revision.value, maxDirectives);
  await deps.events.emit({
    type: "supervision.first_round_revise",
    skipped: false,
    count: revisedDrafts.length,
    reason: `issues with ${issues.join(", ")}`,
  });
  return { critique: c, revisedDrafts };
}

/** A structured supervisor call whose failure (bad answers or a non-fatal error) becomes a value. */
async function askObject<T>(
  deps: EngineDeps,
  schema: z.ZodType<T>,
  schemaName: string,
  prompt: () => string,
): Promise<{ ok: true; value: T } | { ok: false; error: string }> {
  try {
    const r = await deps.models.object("supervisor", {
      instructions: SUPERVISOR_INSTRUCTIONS,
      prompt: prompt(),
      schema,
      schemaName,
      abortSignal: deps.signal,
    });
    return r.ok ? { ok: true, value: r.value } : { ok: false, error: r.error.message };
  } catch (e) {
    return { ok: false, error: recoverableMessage(e, deps.signal) };
  }
}
