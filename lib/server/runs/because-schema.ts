/**
 * An engine reason as data beside its English `reason` (lib/research/because.ts), as the API shows
 * it: a page in another language says it from the code; a code it does not know, or none, falls back
 * to the English. The code is a plain string here: new codes come without a change of contract.
 */
import { z } from "zod";

export const becauseSchema = z
  .object({
    code: z
      .string()
      .meta({ description: "What happened, e.g. `verdict_model` (see lib/research/because.ts)." }),
    values: z
      .record(z.string(), z.union([z.string(), z.number()]))
      .optional()
      .meta({
        description:
          "What its words need: numbers, a kind, or `said` (someone else's words, as they were said).",
      }),
  })
  .meta({
    id: "Because",
    description:
      "The `reason` beside it as a code with values, for saying it in the reader's language; null where it was stored before codes.",
  });
