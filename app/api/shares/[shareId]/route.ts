import { z } from "zod";
import { AppError } from "@/lib/errors";
import { handle } from "@/lib/http";
import { currentOwner } from "@/lib/server/owner";
import { serverRuntime } from "@/lib/server/runtime";
import { revokeOwnShare } from "@/lib/server/shares";

export const dynamic = "force-dynamic";

export const DELETE = handle(async (req: Request, ctx: RouteContext<"/api/shares/[shareId]">) => {
  const { shareId } = await ctx.params;
  if (!z.uuid().safeParse(shareId).success) throw new AppError("not_found", "No such share.");
  await revokeOwnShare(await serverRuntime(), shareId, await currentOwner(req));
  return new Response(null, { status: 204 });
});
