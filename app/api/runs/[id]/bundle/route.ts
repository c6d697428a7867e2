import { handle } from "@/lib/http";
import { openRunBundle } from "@/lib/server/exports/bundle-export";
import { runIdOrNotFound } from "@/lib/server/ids";
import { currentOwner } from "@/lib/server/owner";
import { serverRuntime } from "@/lib/server/runtime";

export const dynamic = "force-dynamic";

/** The owner's ended run as a portable bundle (one JSON file, streamed as it is written). */
export const GET = handle(async (req: Request, ctx: RouteContext<"/api/runs/[id]/bundle">) => {
  const id = runIdOrNotFound((await ctx.params).id);
  const owner = await currentOwner(req, "research");
  const { stream, filename } = await openRunBundle(await serverRuntime(), id, owner);
  return new Response(stream, {
    headers: {
      "content-type": "application/json; charset=utf-8",
      "content-disposition": `attachment; filename="${filename}"`,
      "cache-control": "no-store",
      "x-content-type-options": "nosniff",
    },
  });
});
