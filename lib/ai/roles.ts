/**
 * Model roles and their fallback chain. A role without its own variable uses the next link;
 * every chain ends at `MODEL`, so setting `MODEL` alone configures everything.
 *
 *   supervisor    → MODEL_SUPERVISOR → MODEL
 *   researcher    → MODEL_RESEARCHER → MODEL
 *   compression   → MODEL_COMPRESSION → MODEL
 *   summarization → MODEL_SUMMARIZATION → MODEL_COMPRESSION → MODEL   (both condense text; a cheap model fits both)
 *   synthesis     → MODEL_SYNTHESIS → MODEL_SUPERVISOR → MODEL        (the report writer wants the strongest model)
 *
 * To add a role: add it to ROLES and give it a chain here.
 */
export const ROLES = ["supervisor", "researcher", "compression", "synthesis", "summarization"] as const;
export type Role = (typeof ROLES)[number];

export const DEFAULT_MODEL_VARIABLE = "MODEL";

export const FALLBACK_CHAIN: Record<Role, readonly Role[]> = {
  supervisor: ["supervisor"],
  researcher: ["researcher"],
  compression: ["compression"],
  summarization: ["summarization", "compression"],
  synthesis: ["synthesis", "supervisor"],
};

export function roleVariable(role: Role): string {
  return `MODEL_${role.toUpperCase()}`;
}

export function isRole(value: string): value is Role {
  return (ROLES as readonly string[]).includes(value);
}

/** The variables consulted for a role, most specific first (for messages and the UI). */
export function chainVariables(role: Role): string[] {
  return [...FALLBACK_CHAIN[role].map(roleVariable), DEFAULT_MODEL_VARIABLE];
}
