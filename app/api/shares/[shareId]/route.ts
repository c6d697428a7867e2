import { z } from "zod";
import { getShareForOwner, revokeShare } from "@/db/queries/shares";
import { AppError } from "@/lib/errors";
import { handle } from "@/lib/http";
import { getRuntime } from "@/lib/jobs/runtime";
import { currentOwner } from "@/lib/server/owner";

export const dynamic = "force-dynamic";

export const DELETE = handle(async (req: Request, ctx: RouteContext<"/api/shares/[shareId]">) => {
  const { shareId } = await ctx.params;
  if (!z.uuid().safeParse(shareId).success) throw new AppError("not_found", "No such share.");
  const db = (await getRuntime()).handle.db;
  const found = await getShareForOwner(db, shareId, await currentOwner(req));
  if (!found) throw new AppError("not_found", "No such share.");
  await revokeShare(db, shareId);
  return new Response(null, { status: 204 });
});
