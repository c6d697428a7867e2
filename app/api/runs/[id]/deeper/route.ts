import { handle, readJson, validated } from "@/lib/http";
import { requireCaller } from "@/lib/server/auth/caller";
import { runIdOrNotFound } from "@/lib/server/ids";
import { rateLimitKey } from "@/lib/server/rate-limits";
import { deeperRequestSchema, researchDeeper } from "@/lib/server/runs/deeper";
import { serverRuntime } from "@/lib/server/runtime";

export const dynamic = "force-dynamic";

/** Research this run deeper: 201 {id} of the child run (counted against the "runs" rate limit). */
export const POST = handle(async (req: Request, ctx: RouteContext<"/api/runs/[id]/deeper">) => {
  const id = runIdOrNotFound((await ctx.params).id);
  const caller = await requireCaller(req, "research");
  // No body at all is the same as {}: research the parent's own question deeper.
  const input =
    req.headers.get("content-length") === "0"
      ? validated(deeperRequestSchema, {})
      : await readJson(req, deeperRequestSchema);
  const starter = { caller, rateLimitKey: await rateLimitKey(req) };
  const run = await researchDeeper(await serverRuntime(), starter, id, input);
  return Response.json(
    { id: run.id, status: run.status, queuePosition: run.queuePosition, warnings: run.warnings },
    { status: 201 },
  );
});
