import { handle } from "@/lib/http";
import { requireCaller } from "@/lib/server/auth/caller";
import { runIdOrNotFound } from "@/lib/server/ids";
import { rateLimitKey } from "@/lib/server/rate-limits";
import { refreshRun } from "@/lib/server/runs/refresh";
import { serverRuntime } from "@/lib/server/runtime";

export const dynamic = "force-dynamic";

/** Refresh a finished report: 201 {id} of its new version (counted against the "runs" rate limit). */
export const POST = handle(async (req: Request, ctx: RouteContext<"/api/runs/[id]/refresh">) => {
  const id = runIdOrNotFound((await ctx.params).id);
  const caller = await requireCaller(req, "research");
  const starter = { caller, rateLimitKey: await rateLimitKey(req) };
  const run = await refreshRun(await serverRuntime(), starter, id);
  return Response.json(
    { id: run.id, status: run.status, queuePosition: run.queuePosition, warnings: run.warnings },
    { status: 201 },
  );
});
