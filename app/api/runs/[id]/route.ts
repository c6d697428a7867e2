import { getDb } from "@/db/client";
import { getRunForOwner } from "@/db/queries/runs";
import { AppError } from "@/lib/errors";
import { handle } from "@/lib/http";
import { parseRunId } from "@/lib/server/ids";
import { currentOwner } from "@/lib/server/owner";
import { runView } from "@/lib/server/run-view";

export const dynamic = "force-dynamic";

export const GET = handle(async (req: Request, ctx: RouteContext<"/api/runs/[id]">) => {
  const id = parseRunId((await ctx.params).id);
  const db = await getDb();
  const run = await getRunForOwner(db, id, await currentOwner(req));
  if (!run) throw new AppError("not_found", "No such run.");
  return Response.json(await runView(db, run));
});
