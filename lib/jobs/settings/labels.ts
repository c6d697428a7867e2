/**
 * The names and words of the settings page's fields, free of imports so the page's client
 * components can use them too (schema.ts checks the values).
 */
export const modelProviders = ["openai", "anthropic", "google", "openai-compatible"] as const;
export type ModelProvider = (typeof modelProviders)[number];

export const providerLabels: Record<ModelProvider, string> = {
  openai: "OpenAI",
  anthropic: "Anthropic",
  google: "Google",
  "openai-compatible": "OpenAI-compatible",
};

export const keyedSearchProviders = ["tavily", "exa", "brave"] as const;
export type KeyedSearchProvider = (typeof keyedSearchProviders)[number];

export const searchKeyLabels: Record<KeyedSearchProvider, string> = {
  tavily: "Tavily",
  exa: "Exa",
  brave: "Brave Search",
};

/** The run defaults and ceilings an admin may set, by the variable that sets them (lib/jobs/run-limits.ts). */
export const runVariables = {
  RUN_DEFAULT_COST_USD: { label: "Default cost limit per run (USD)", min: 0.01, integer: false },
  RUN_MAX_COST_USD: { label: "Highest cost limit per run (USD)", min: 0.01, integer: false },
  RUN_MAX_TOKENS: { label: "Highest token limit per run", min: 1000, integer: true },
  RUN_MAX_ROUNDS: { label: "Most supervision rounds", min: 1, integer: true },
  RUN_MAX_RESEARCHERS: { label: "Most researchers at once", min: 1, integer: true },
  RUN_MAX_FOLLOW_UPS: { label: "Most follow-ups per round", min: 1, integer: true },
  RUN_MAX_DIRECTIVES: { label: "Most directives per run", min: 1, integer: true },
  RUN_MAX_TOOL_CALLS: { label: "Most tool calls per researcher", min: 1, integer: true },
  RUN_MAX_DURATION_SECONDS: { label: "Longest run (seconds)", min: 10, integer: true },
} as const;
export type RunVariable = keyof typeof runVariables;
export const runVariableNames = Object.keys(runVariables) as RunVariable[];
