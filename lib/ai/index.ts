// The engine's entry point to models. It never imports provider packages; it asks for a role.
export {
  type CallDeps,
  callText,
  type GenerationOptions,
  type ModelRetryEvent,
  type PromptInput,
  type TextCallOptions,
  type TextCallResult,
} from "./call.ts";
export { createModelClient, type ModelClient } from "./client.ts";
export {
  assertModelsConfigured,
  configHelp,
  type ModelConfigStatus,
  modelConfigStatus,
  OLLAMA_EXAMPLE,
  type RoleStatus,
} from "./config-status.ts";
export {
  ContextWindowError,
  detectContextWindowError,
  isContextWindowError,
  toContextWindowError,
} from "./context-errors.ts";
export { abortError, isAbortError, ModelCallError, ModelConfigError, ModelTimeoutError } from "./errors.ts";
export { DEFAULT_PRICING, findPrice, loadPricing, type ModelPrice, type PricingTable } from "./pricing.ts";
export type { Env, LanguageModelInstance, ProviderFactories, ProviderFactory } from "./providers.ts";
export {
  type CallSettings,
  createModelRegistry,
  type ModelRegistry,
  type ModelRegistryOptions,
  readCallSettings,
} from "./registry.ts";
export type { RoleOverrides, RoleResolution } from "./resolve.ts";
export { FALLBACK_CHAIN, isRole, ROLES, type Role, roleVariable } from "./roles.ts";
export { type ModelSpec, parseModelSpec } from "./spec.ts";
export {
  callObject,
  type ObjectCallOptions,
  type ObjectCallResult,
  StructuredOutputError,
} from "./structured.ts";
export {
  type Budget,
  BudgetExceededError,
  type TokenUsage,
  UsageMeter,
  type UsageRecord,
  type UsageSnapshot,
  type UsageTotals,
} from "./usage.ts";
