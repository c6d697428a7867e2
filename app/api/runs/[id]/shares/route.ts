import { handle } from "@/lib/http";
import { publicOrigin } from "@/lib/server/auth/settings";
import { runIdOrNotFound } from "@/lib/server/ids";
import { currentOwner } from "@/lib/server/owner";
import { serverRuntime } from "@/lib/server/runtime";
import { shareRun } from "@/lib/server/shares/create";
import { listRunShares } from "@/lib/server/shares/list";
import { readShareRequest } from "@/lib/server/shares/requests";

export const dynamic = "force-dynamic";

/** A new link; its URL (with the token) is in this answer only — the server keeps just a hash. */
export const POST = handle(async (req: Request, ctx: RouteContext<"/api/runs/[id]/shares">) => {
  const id = runIdOrNotFound((await ctx.params).id);
  const owner = await currentOwner(req, "research");
  const request = await readShareRequest(req);
  const { share, token } = await shareRun(await serverRuntime(), id, owner, request);
  const url = `${publicOrigin(req)}/share/${token}`;
  const { id: shareId, label, createdAt, expiresAt, allowDownload, includeThread } = share;
  return Response.json(
    { id: shareId, url, label, createdAt, expiresAt, allowDownload, includeThread },
    { status: 201 },
  );
});

export const GET = handle(async (req: Request, ctx: RouteContext<"/api/runs/[id]/shares">) => {
  const id = runIdOrNotFound((await ctx.params).id);
  const shares = await listRunShares(await serverRuntime(), id, await currentOwner(req, "read"));
  return Response.json({ shares });
});
