import { handle, readJson } from "@/lib/http";
import { runIdOrNotFound } from "@/lib/server/ids";
import { currentOwner } from "@/lib/server/owner";
import { enforceRateLimit } from "@/lib/server/rate-limits";
import { answerClarification } from "@/lib/server/runs/clarify";
import { clarificationRequestSchema } from "@/lib/server/runs/steer-input";
import { serverRuntime } from "@/lib/server/runtime";

export const dynamic = "force-dynamic";

export const POST = handle(async (req: Request, ctx: RouteContext<"/api/runs/[id]/clarification">) => {
  const id = runIdOrNotFound((await ctx.params).id);
  const owner = await currentOwner(req, "research");
  const { answer } = await readJson(req, clarificationRequestSchema);
  const rt = await serverRuntime();
  await enforceRateLimit(rt, req, "actions");
  await answerClarification(rt, id, owner, answer);
  return Response.json({ status: "queued" }, { status: 202 });
});
