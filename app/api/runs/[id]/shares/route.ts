import { handle } from "@/lib/http";
import { runIdOrNotFound } from "@/lib/server/ids";
import { currentOwner } from "@/lib/server/owner";
import { serverRuntime } from "@/lib/server/runtime";
import { listRunShares, shareRun } from "@/lib/server/shares";

export const dynamic = "force-dynamic";

const shareJson = (
  s: { id: string; token: string; createdAt: Date; revokedAt: Date | null },
  origin: string,
) => ({
  id: s.id,
  url: `${origin}/share/${s.token}`,
  createdAt: s.createdAt,
  revokedAt: s.revokedAt,
});

export const POST = handle(async (req: Request, ctx: RouteContext<"/api/runs/[id]/shares">) => {
  const id = runIdOrNotFound((await ctx.params).id);
  const share = await shareRun(await serverRuntime(), id, await currentOwner(req));
  return Response.json(shareJson(share, new URL(req.url).origin), { status: 201 });
});

export const GET = handle(async (req: Request, ctx: RouteContext<"/api/runs/[id]/shares">) => {
  const id = runIdOrNotFound((await ctx.params).id);
  const shares = await listRunShares(await serverRuntime(), id, await currentOwner(req));
  const origin = new URL(req.url).origin;
  return Response.json({ shares: shares.map((s) => shareJson(s, origin)) });
});
