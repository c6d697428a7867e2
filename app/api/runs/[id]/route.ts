import { AppError } from "@/lib/errors";
import { handle } from "@/lib/http";
import { parseRunId } from "@/lib/server/ids";
import { currentOwner } from "@/lib/server/owner";
import { findRunView } from "@/lib/server/runs";
import { serverRuntime } from "@/lib/server/runtime";

export const dynamic = "force-dynamic";

export const GET = handle(async (req: Request, ctx: RouteContext<"/api/runs/[id]">) => {
  const id = parseRunId((await ctx.params).id);
  const view = await findRunView(await serverRuntime(), id, await currentOwner(req));
  if (!view) throw new AppError("not_found", "No such run.");
  return Response.json(view);
});
