import { AppError } from "@/lib/errors";
import { handle } from "@/lib/http";
import { parseRunId, runIdOrNotFound } from "@/lib/server/ids";
import { currentOwner } from "@/lib/server/owner";
import { enforceRateLimit } from "@/lib/server/rate-limits";
import { deleteRun } from "@/lib/server/runs/delete";
import { findRunView } from "@/lib/server/runs/view";
import { serverRuntime } from "@/lib/server/runtime";

export const dynamic = "force-dynamic";

export const GET = handle(async (req: Request, ctx: RouteContext<"/api/runs/[id]">) => {
  const id = parseRunId((await ctx.params).id);
  const view = await findRunView(await serverRuntime(), id, await currentOwner(req, "read"));
  if (!view) throw new AppError("not_found", "No such run.");
  return Response.json(view);
});

/** Deletes the owner's ended run and everything it owns (204); 409 while it has not ended. */
export const DELETE = handle(async (req: Request, ctx: RouteContext<"/api/runs/[id]">) => {
  const owner = await currentOwner(req, "research");
  // A malformed id names no run: the same 404 as another person's run.
  const id = runIdOrNotFound((await ctx.params).id);
  const rt = await serverRuntime();
  await enforceRateLimit(rt, req, "actions");
  await deleteRun(rt, id, owner);
  return new Response(null, { status: 204 });
});
