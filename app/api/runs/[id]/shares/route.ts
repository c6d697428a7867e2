import { getRunForOwner } from "@/db/queries/runs";
import { createShare, listSharesForRun } from "@/db/queries/shares";
import { AppError } from "@/lib/errors";
import { handle } from "@/lib/http";
import { getRuntime } from "@/lib/jobs/runtime";
import { runIdOrNotFound } from "@/lib/server/ids";
import { currentOwner } from "@/lib/server/owner";

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
  const db = (await getRuntime()).handle.db;
  const run = await getRunForOwner(db, id, await currentOwner(req));
  if (!run) throw new AppError("not_found", "No such run.");
  const share = await createShare(db, id);
  return Response.json(shareJson(share, new URL(req.url).origin), { status: 201 });
});

export const GET = handle(async (req: Request, ctx: RouteContext<"/api/runs/[id]/shares">) => {
  const id = runIdOrNotFound((await ctx.params).id);
  const db = (await getRuntime()).handle.db;
  const run = await getRunForOwner(db, id, await currentOwner(req));
  if (!run) throw new AppError("not_found", "No such run.");
  const origin = new URL(req.url).origin;
  return Response.json({ shares: (await listSharesForRun(db, id)).map((s) => shareJson(s, origin)) });
});
