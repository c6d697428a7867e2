import type { ToolSet } from "ai";
import { type CallDeps, callText, type TextCallOptions, type TextCallResult } from "./call.ts";
import type { LanguageModelInstance } from "./providers.ts";
import type { ModelRegistry } from "./registry.ts";
import type { Role } from "./roles.ts";
import { callObject, type ObjectCallOptions, type ObjectCallResult } from "./structured.ts";
import type { UsageMeter } from "./usage.ts";

/** What the engine receives: role-bound calls with retries, limits, usage and budget applied. */
export type ModelClient = {
  readonly registry: ModelRegistry;
  readonly meter: UsageMeter | undefined;
  text<TOOLS extends ToolSet = ToolSet>(
    role: Role,
    opts: TextCallOptions<TOOLS>,
  ): Promise<TextCallResult<TOOLS>>;
  object<T>(role: Role, opts: ObjectCallOptions<T>): Promise<ObjectCallResult<T>>;
  /** The raw model, for SDK features the helpers do not cover (no retry/usage applied). */
  model(role: Role): LanguageModelInstance;
};

export function createModelClient(deps: CallDeps): ModelClient {
  return {
    registry: deps.registry,
    meter: deps.meter,
    text: (role, opts) => callText(deps, role, opts),
    object: (role, opts) => callObject(deps, role, opts),
    model: (role) => deps.registry.model(role),
  };
}
