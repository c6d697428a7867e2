/**
 * Reading numeric and boolean settings from environment variables, with the variable named in the
 * error, so a typo in a limit stops the process at start (or the request) with a readable message
 * instead of silently turning into NaN.
 */
export type Env = Readonly<Record<string, string | undefined>>;

export interface NumberRule {
  min?: number;
  max?: number;
  integer?: boolean;
}

/** The variable as a number, or `fallback` when it is unset or empty. */
export function envNumber(env: Env, name: string, fallback: number, rule: NumberRule = {}): number {
  const raw = env[name];
  if (raw === undefined || raw.trim() === "") return fallback;
  const n = Number(raw);
  const min = rule.min ?? Number.NEGATIVE_INFINITY;
  const max = rule.max ?? Number.POSITIVE_INFINITY;
  if (!Number.isFinite(n) || n < min || n > max || (rule.integer && !Number.isInteger(n))) {
    const kind = rule.integer ? "an integer" : "a number";
    const range = [rule.min !== undefined && `≥ ${rule.min}`, rule.max !== undefined && `≤ ${rule.max}`]
      .filter(Boolean)
      .join(" and ");
    throw new Error(`${name} must be ${kind}${range ? ` ${range}` : ""} (got "${raw}")`);
  }
  return n;
}

/** true/1/yes/on or false/0/no/off; `fallback` when unset. */
export function envFlag(env: Env, name: string, fallback: boolean): boolean {
  const raw = env[name]?.trim().toLowerCase();
  if (!raw) return fallback;
  if (["1", "true", "yes", "on"].includes(raw)) return true;
  if (["0", "false", "no", "off"].includes(raw)) return false;
  throw new Error(`${name} must be true or false (got "${env[name]}")`);
}
