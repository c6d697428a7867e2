import { AppError } from "../errors.ts";

/** Creating a run without any model would only fail later; refuse it up front with what to set. */
export function requireConfiguredModels(env: NodeJS.ProcessEnv = process.env): void {
  if (!env.MODEL) {
    throw new AppError(
      "not_configured",
      "No model is configured. Set MODEL (e.g. MODEL=openai-compatible:llama3.1 with " +
        "OPENAI_COMPATIBLE_BASE_URL=http://localhost:11434/v1 for Ollama) and restart.",
    );
  }
}
