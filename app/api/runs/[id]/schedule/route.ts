import { handle, readJson } from "@/lib/http";
import { runIdOrNotFound } from "@/lib/server/ids";
import { currentOwner } from "@/lib/server/owner";
import { enforceRateLimit } from "@/lib/server/rate-limits";
import { serverRuntime } from "@/lib/server/runtime";
import {
  getRunSchedule,
  removeSchedule,
  scheduleRequestSchema,
  setSchedule,
} from "@/lib/server/schedules/schedule";

export const dynamic = "force-dynamic";

/** The report's schedule, or `{schedule: null}`. */
export const GET = handle(async (req: Request, ctx: RouteContext<"/api/runs/[id]/schedule">) => {
  const owner = await currentOwner(req, "read");
  const id = runIdOrNotFound((await ctx.params).id);
  return Response.json({ schedule: await getRunSchedule(await serverRuntime(), owner, id) });
});

/** Refresh the report every day, week or month (replaces its earlier interval). */
export const PUT = handle(async (req: Request, ctx: RouteContext<"/api/runs/[id]/schedule">) => {
  const owner = await currentOwner(req, "research");
  const id = runIdOrNotFound((await ctx.params).id);
  const input = await readJson(req, scheduleRequestSchema);
  const rt = await serverRuntime();
  await enforceRateLimit(rt, req, "actions");
  return Response.json({ schedule: await setSchedule(rt, owner, id, input) });
});

/** Stop refreshing the report on a schedule. */
export const DELETE = handle(async (req: Request, ctx: RouteContext<"/api/runs/[id]/schedule">) => {
  const owner = await currentOwner(req, "research");
  const id = runIdOrNotFound((await ctx.params).id);
  const rt = await serverRuntime();
  await enforceRateLimit(rt, req, "actions");
  return Response.json(await removeSchedule(rt, owner, id));
});
