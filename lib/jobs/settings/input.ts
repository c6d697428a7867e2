/**
 * What PUT /api/admin/settings takes: one or more areas, each complete. Key fields are write-only:
 * `{ value }` sets a key, an empty or missing value keeps the stored one, `{ clear: true }` removes it.
 */
import { z } from "zod";
import { ROLES } from "../../ai/roles.ts";
import { providerNames } from "../../search/index.ts";
import { httpUrlSchema, keyedSearchProviders, modelSpecSchema, storedRunsSchema } from "./schema.ts";

const blankIsUnset = (v: unknown) => (typeof v === "string" && v.trim() === "" ? undefined : v);

const optionalSpec = z.preprocess(blankIsUnset, modelSpecSchema.optional());
const optionalUrl = z.preprocess(blankIsUnset, httpUrlSchema.optional());

export const keyInputSchema = z
  .strictObject({
    value: z.string().trim().max(1000).optional(),
    clear: z.boolean().optional(),
  })
  .optional();
export type KeyInput = z.infer<typeof keyInputSchema>;

const providerInput = z.strictObject({
  useEnvironment: z.boolean(),
  key: keyInputSchema,
  baseUrl: optionalUrl,
});

export const settingsInputSchema = z
  .strictObject({
    models: z
      .strictObject({
        useEnvironment: z.boolean(),
        model: optionalSpec,
        roles: z.partialRecord(z.enum(ROLES), optionalSpec).default({}),
      })
      .optional(),
    providers: z
      .strictObject({
        openai: providerInput.optional(),
        anthropic: providerInput.optional(),
        google: providerInput.optional(),
        "openai-compatible": providerInput.optional(),
      })
      .optional(),
    search: z
      .strictObject({
        useEnvironment: z.boolean(),
        providers: z.array(z.enum(providerNames)).min(1, "choose at least one search provider"),
        keys: z.partialRecord(z.enum(keyedSearchProviders), keyInputSchema).default({}),
        searxngUrl: optionalUrl,
      })
      .optional(),
    runs: storedRunsSchema.optional(),
  })
  .refine((b) => Object.values(b).some((v) => v !== undefined), "send at least one settings area");
export type SettingsInput = z.infer<typeof settingsInputSchema>;
