import { assertModelsConfigured, modelConfigStatus } from "../ai/config-status.ts";

/** Creating a run without usable models would only fail later; refuse it up front (409) with what to set. */
export function requireConfiguredModels(env: NodeJS.ProcessEnv = process.env): void {
  assertModelsConfigured(modelConfigStatus(env));
}
