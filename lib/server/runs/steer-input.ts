/**
 * The body of POST /api/runs/:id/directives: either steering (add a directive) or, when plan
 * review is on, approving the plan with optional edits. One priority list everywhere: the
 * engine's vocabulary (critical, high, normal, low).
 */
import { z } from "zod";
import { directivePriorities } from "../../research/ui.ts";

const topic = z.string().trim().min(5, "topic must be at least 5 characters").max(2000);
const priority = z.enum(directivePriorities);

export const steerRequestSchema = z.strictObject({ topic, priority: priority.default("normal") });

export const approvePlanRequestSchema = z.strictObject({
  approvePlan: z.literal(true),
  edits: z
    .array(
      z.strictObject({
        id: z.uuid(),
        topic: topic.optional(),
        priority: priority.optional(),
        drop: z.boolean().optional(),
      }),
    )
    .max(50)
    .default([]),
  /** Directives the person adds to the plan; stored with the edits in one transaction. */
  add: z
    .array(z.strictObject({ topic, priority: priority.default("normal") }))
    .max(20)
    .default([]),
});

export const directiveRequestSchema = z.union([steerRequestSchema, approvePlanRequestSchema]);

/**
 * The plan review form's fields, as the browser posts them (one name per directive, suffixed with
 * its id) turned into the approve-plan request: only what changed becomes an edit, so approving an
 * untouched plan records no edit. A new directive typed into the form comes back as `add`.
 */
export const planFormAdditionSchema = z.strictObject({ topic, priority: priority.default("normal") });

export function planRequestFromForm(fields: Record<string, string | string[]>): {
  request: Record<string, unknown>;
  add: Record<string, unknown> | null;
} {
  const list = (name: string) => {
    const v = fields[name];
    return v === undefined ? [] : Array.isArray(v) ? v : [v];
  };
  const one = (name: string) => list(name)[0];
  const removed = new Set(list("remove"));
  const edits = list("directive").map((id) => {
    const topicText = one(`topic.${id}`)?.trim();
    const prio = one(`priority.${id}`);
    return {
      id,
      ...(removed.has(id) ? { drop: true } : {}),
      ...(topicText !== undefined && topicText !== one(`original-topic.${id}`)?.trim()
        ? { topic: topicText }
        : {}),
      ...(prio !== undefined && prio !== one(`original-priority.${id}`) ? { priority: prio } : {}),
    };
  });
  const newTopic = one("newTopic")?.trim();
  return {
    request: {
      approvePlan: true,
      edits: edits.filter((e) => Object.keys(e).length > 1),
    },
    add: newTopic ? { topic: newTopic, priority: one("newPriority") ?? "normal" } : null,
  };
}

/** Skipping the clarifying question answers it with this, so the brief says the choice was left open. */
export const skipClarificationAnswer =
  "No preference: proceed with reasonable assumptions and state them in the report.";

export const clarificationAnswerSchema = z.strictObject({
  answer: z.string().trim().min(1, "write an answer, or choose Skip").max(4000),
});

/** The body of POST /api/runs/:id/clarification (the form's own schema above has its own wording). */
export const clarificationRequestSchema = z.strictObject({ answer: z.string().trim().min(1).max(4000) });
