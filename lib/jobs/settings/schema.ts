/**
 * The shapes of the settings an admin stores in `app_settings` (one row per area), checked with zod
 * whenever they are read or written. Keys are stored sealed (lib/secrets.ts, purpose "settings")
 * with their last four characters for the page; the plain key never leaves the server.
 * Each area has `useEnvironment`: true (the default) means the environment variables decide.
 */
import { z } from "zod";
import { ROLES } from "../../ai/roles.ts";
import { parseModelChain } from "../../ai/spec.ts";
import { providerNames } from "../../search/index.ts";
import { keyedSearchProviders, type RunVariable, runVariableNames, runVariables } from "./labels.ts";

export * from "./labels.ts";

export const settingAreas = ["models", "providers", "search", "runs"] as const;
export type SettingArea = (typeof settingAreas)[number];

/** A model, or a comma-separated chain of models tried in order (`openai:gpt-5.1,anthropic:claude-sonnet-4-5`). */
export const modelSpecSchema = z
  .string()
  .trim()
  .max(2000)
  .superRefine((s, ctx) => {
    try {
      parseModelChain(s, { variable: "model" });
    } catch (e) {
      ctx.addIssue({ code: "custom", message: e instanceof Error ? e.message : String(e) });
    }
  });

export const httpUrlSchema = z
  .string()
  .trim()
  .max(2000)
  .refine((u) => /^https?:\/\//i.test(u) && URL.canParse(u), "must be an http(s) URL");

export const sealedKeySchema = z.strictObject({ sealed: z.string().min(1), last4: z.string().max(4) });
export type SealedKey = z.infer<typeof sealedKeySchema>;

export const storedModelsSchema = z.strictObject({
  useEnvironment: z.boolean(),
  /** MODEL: every role's last fallback. */
  model: modelSpecSchema.optional(),
  /** MODEL_<ROLE>: per-role choices; an unset role follows its fallback chain. */
  roles: z.partialRecord(z.enum(ROLES), modelSpecSchema).default({}),
});

const storedProviderSchema = z.strictObject({
  useEnvironment: z.boolean(),
  key: sealedKeySchema.optional(),
  /** Where the provider is called (a proxy or gateway); unset: the provider's own API. Required for openai-compatible. */
  baseUrl: httpUrlSchema.optional(),
});
export type StoredProvider = z.infer<typeof storedProviderSchema>;

export const storedProvidersSchema = z.strictObject({
  openai: storedProviderSchema.optional(),
  anthropic: storedProviderSchema.optional(),
  google: storedProviderSchema.optional(),
  "openai-compatible": storedProviderSchema.optional(),
});

export const storedSearchSchema = z.strictObject({
  useEnvironment: z.boolean(),
  providers: z.array(z.enum(providerNames)).min(1).default(["library"]),
  keys: z.partialRecord(z.enum(keyedSearchProviders), sealedKeySchema).default({}),
  searxngUrl: httpUrlSchema.optional(),
});

const runValue = (v: (typeof runVariables)[RunVariable]) =>
  (v.integer ? z.number().int() : z.number()).min(v.min).max(1e9);

export const storedRunsSchema = z.strictObject({
  useEnvironment: z.boolean(),
  values: z
    .strictObject(
      Object.fromEntries(runVariableNames.map((k) => [k, runValue(runVariables[k]).optional()])) as Record<
        RunVariable,
        z.ZodOptional<z.ZodNumber>
      >,
    )
    .default({}),
});

export type StoredModels = z.infer<typeof storedModelsSchema>;
export type StoredProviders = z.infer<typeof storedProvidersSchema>;
export type StoredSearch = z.infer<typeof storedSearchSchema>;
export type StoredRuns = z.infer<typeof storedRunsSchema>;

export interface StoredSettings {
  models?: StoredModels;
  providers?: StoredProviders;
  search?: StoredSearch;
  runs?: StoredRuns;
}

export const storedAreaSchemas = {
  models: storedModelsSchema,
  providers: storedProvidersSchema,
  search: storedSearchSchema,
  runs: storedRunsSchema,
} as const;
