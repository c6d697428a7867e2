/** What every MCP tool works with: the runtime, the token's owner, and where the dashboard lives. */
import { z } from "zod";
import type { Env } from "../../env.ts";
import type { Caller } from "../auth/caller.ts";
import { userRateLimitKey } from "../rate-limits.ts";
import type { Runtime } from "../runtime.ts";

export interface McpContext {
  rt: Runtime;
  caller: Caller;
  /** The public origin dashboard links are built with (APP_URL, else the request's own). */
  origin: string;
  env: Env;
  /** Ends with the HTTP request: a client that hangs up stops a follow_research wait. */
  signal: AbortSignal;
}

export const dashboardUrl = (ctx: McpContext, runId: string) => `${ctx.origin}/runs/${runId}`;

/** Rate limits are counted per person, with the same key as the HTTP API's. */
export const rateLimitKeyOf = (ctx: McpContext) => userRateLimitKey(ctx.caller.userId);

const uuid = z.uuid();

/** A malformed id names no run: the caller hears the same as for a missing one. */
export const isRunId = (id: string) => uuid.safeParse(id).success;

/** Tool inputs take any string as an id, so a malformed one is a readable "no such run", not a schema error. */
export const runIdInput = z
  .string()
  .max(200)
  .describe("The research run's id, as start_research returned it.");
