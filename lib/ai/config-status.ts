import { ModelConfigError } from "./errors.ts";
import type { Env } from "./providers.ts";
import { type ResolveContext, type RoleResolution, resolveRole } from "./resolve.ts";
import { chainVariables, ROLES, type Role } from "./roles.ts";

export type RoleStatus = {
  role: Role;
  configured: boolean;
  /** `provider:model-id` when a value was found (even if unusable): the first model of the chain. */
  model?: string;
  /** The usable models of the role's chain, in the order calls try them. */
  models: string[];
  /** Chain members left out because their provider is not configured (a warning each). */
  skipped: string[];
  /** Where the value came from: a variable name or a run setting. */
  source?: string;
  /** Variables consulted, most specific first. */
  chain: string[];
  problem?: string;
};

export type ModelConfigStatus = {
  /** Every role has a usable model. */
  configured: boolean;
  roles: RoleStatus[];
  unconfigured: Role[];
  problems: string[];
  /** What to set, for the UI and /api/health; present whenever something is unconfigured. */
  help?: ConfigHelp;
};

export type ConfigHelp = {
  message: string;
  /** A working local setup: Ollama serving an OpenAI-compatible API. */
  example: Record<string, string>;
  exampleText: string;
  alternatives: string[];
};

export const OLLAMA_EXAMPLE: Record<string, string> = {
  MODEL: "openai-compatible:llama3.1",
  OPENAI_COMPATIBLE_BASE_URL: "http://localhost:11434/v1",
};

export function configHelp(): ConfigHelp {
  return {
    message:
      "Set MODEL to provider:model-id (one of openai:, anthropic:, google:, openai-compatible:) with the " +
      "provider's key or base URL, or to several of them separated by commas (tried in order when a call " +
      "fails). MODEL_SUPERVISOR, MODEL_RESEARCHER, MODEL_COMPRESSION, MODEL_SYNTHESIS and " +
      "MODEL_SUMMARIZATION override single roles.",
    example: { ...OLLAMA_EXAMPLE },
    exampleText: Object.entries(OLLAMA_EXAMPLE)
      .map(([k, v]) => `${k}=${v}`)
      .join("\n"),
    alternatives: [
      "MODEL=openai:gpt-4.1 with OPENAI_API_KEY",
      "MODEL=anthropic:claude-sonnet-4-5 with ANTHROPIC_API_KEY",
      "MODEL=google:gemini-2.5-flash with GOOGLE_GENERATIVE_AI_API_KEY",
    ],
  };
}

export function statusFromResolutions(resolutions: RoleResolution[]): ModelConfigStatus {
  const roles: RoleStatus[] = resolutions.map((r) => ({
    role: r.role,
    configured: r.ok,
    model: r.spec?.id,
    models: (r.chain ?? []).map((s) => s.id),
    skipped: (r.skipped ?? []).map((s) => s.problem),
    source: r.source,
    chain: chainVariables(r.role),
    problem: r.ok ? undefined : r.problem,
  }));
  const unconfigured = roles.filter((r) => !r.configured).map((r) => r.role);
  // Several roles usually share one root cause (MODEL unset); report each distinct problem once.
  const problems = [...new Set(roles.flatMap((r) => (r.problem ? [r.problem] : [])))];
  return {
    configured: unconfigured.length === 0,
    roles,
    unconfigured,
    problems,
    help: unconfigured.length ? configHelp() : undefined,
  };
}

/** Which roles are configured, without building any provider (cheap; for /api/health and the UI). */
export function modelConfigStatus(
  env: Env = process.env,
  ctx: Omit<ResolveContext, "env"> = {},
): ModelConfigStatus {
  return statusFromResolutions(ROLES.map((role) => resolveRole(role, { ...ctx, env })));
}

/**
 * Throws a ModelConfigError (HTTP 409 `not_configured`) listing what to set when any role is
 * unusable. Call it before creating a run so the caller gets a clear error instead of a failed run.
 */
export function assertModelsConfigured(status: ModelConfigStatus): void {
  if (status.configured) return;
  const help = status.help ?? configHelp();
  // With nothing set at all, one sentence beats the same advice repeated for every role.
  const nothingSet = status.roles.every((r) => !r.configured && !r.model);
  const what = nothingSet
    ? "No model is configured: set MODEL to provider:model-id (MODEL_SUPERVISOR, MODEL_RESEARCHER, … override single roles)"
    : `Models are not configured (${status.unconfigured.join(", ")}): ${status.problems.join("; ")}`;
  throw new ModelConfigError(
    `${what}. ` +
      `Example for a local Ollama: ${Object.entries(help.example)
        .map(([k, v]) => `${k}=${v}`)
        .join(" ")}.`,
    { variable: status.roles.find((r) => !r.configured)?.source ?? "MODEL" },
  );
}
