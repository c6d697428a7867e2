/**
 * The body of POST /api/runs/:id/directives: either steering (add a directive) or, when plan
 * review is on, approving the plan with optional edits. One priority list everywhere: the
 * engine's vocabulary (critical, high, normal, low).
 */
import { z } from "zod";
import { directivePriorities } from "../research/vocabulary.ts";

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
});

export const directiveRequestSchema = z.union([steerRequestSchema, approvePlanRequestSchema]);
