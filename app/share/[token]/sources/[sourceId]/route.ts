import { handle } from "@/lib/http";
import { sourceIdOrNotFound } from "@/lib/server/ids";
import { serverRuntime } from "@/lib/server/runtime";
import { sharedSourceView } from "@/lib/server/shares/source";

export const dynamic = "force-dynamic";

/** A cited source's claims and passages for the share page's citation card (no login: the link is the key). */
export const GET = handle(async (_req: Request, ctx: RouteContext<"/share/[token]/sources/[sourceId]">) => {
  const { token, sourceId } = await ctx.params;
  return Response.json(await sharedSourceView(await serverRuntime(), token, sourceIdOrNotFound(sourceId)), {
    headers: { "cache-control": "private, no-store" },
  });
});
