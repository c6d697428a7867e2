/**
 * A cap on the live updates one person holds open at once: event streams (SSE, GET
 * /api/runs/:id/events) and MCP follows (follow_research) together, EVENT_STREAMS_MAX_PER_USER
 * (default 20) per web process. Each holds a connection and a place among the run's viewers for as
 * long as it lasts, so without a cap one account could open them until the process runs out.
 * Past the cap the request is answered 429 `rate_limited`, naming the variable; the run page says
 * so and offers to try again.
 */
import { type Env, envNumber } from "../env.ts";
import { AppError } from "../errors.ts";

export const STREAM_CAP_VARIABLE = "EVENT_STREAMS_MAX_PER_USER";

export function streamCapFromEnv(env: Env = process.env): number {
  return envNumber(env, STREAM_CAP_VARIABLE, 20, { min: 1, integer: true });
}

// On globalThis: every route bundle of the process must count in the same place.
const key = Symbol.for("deep-research.stream-slots");
type G = typeof globalThis & { [key]?: Map<string, number> };

function openStreams(): Map<string, number> {
  const g = globalThis as G;
  g[key] ??= new Map();
  return g[key];
}

/** How many live updates `userId` holds open in this process. */
export function streamsOpen(userId: string): number {
  return openStreams().get(userId) ?? 0;
}

/**
 * Takes one of the person's stream slots; the function returned gives it back (once, however often
 * it is called). Throws 429 when they hold the most the server allows.
 */
export function takeStreamSlot(userId: string, env: Env = process.env): () => void {
  const cap = streamCapFromEnv(env);
  const open = openStreams();
  const held = open.get(userId) ?? 0;
  if (held >= cap) {
    throw new AppError(
      "rate_limited",
      `You have ${held} live updates open (run pages and MCP follows), the most this server allows one person (${STREAM_CAP_VARIABLE}=${cap}). Close a tab showing a run, or try again when one of them ends.`,
      {
        headers: { "retry-after": "5" },
        details: { open: held, max: cap, variable: STREAM_CAP_VARIABLE },
      },
    );
  }
  open.set(userId, held + 1);
  let given = false;
  return () => {
    if (given) return;
    given = true;
    const left = (open.get(userId) ?? 1) - 1;
    if (left > 0) open.set(userId, left);
    else open.delete(userId);
  };
}
