import { z } from "zod";

/** Per-run settings a caller may pass with POST /api/runs; defaults follow DESIGN §6. */
export const runSettingsSchema = z
  .strictObject({
    maxSupervisionRounds: z.number().int().min(0).max(10).default(3),
    maxConcurrentResearchers: z.number().int().min(1).max(20).default(5),
    searchProviders: z
      .array(z.enum(["library", "searxng", "tavily", "exa", "brave"]))
      .min(1)
      .optional(),
    planReview: z.boolean().default(false),
    clarification: z.boolean().default(false),
  })
  .default({
    maxSupervisionRounds: 3,
    maxConcurrentResearchers: 5,
    planReview: false,
    clarification: false,
  });
export type RunSettings = z.infer<typeof runSettingsSchema>;

export const createRunSchema = z.strictObject({
  question: z.string().trim().min(3, "question must be at least 3 characters").max(4000),
  settings: runSettingsSchema,
});
