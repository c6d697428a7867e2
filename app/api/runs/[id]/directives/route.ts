import { handle, readJson } from "@/lib/http";
import { runIdOrNotFound } from "@/lib/server/ids";
import { currentOwner } from "@/lib/server/owner";
import { enforceRateLimit } from "@/lib/server/rate-limits";
import { approvePlan } from "@/lib/server/runs/approve-plan";
import { addUserDirective } from "@/lib/server/runs/steer";
import { directiveRequestSchema } from "@/lib/server/runs/steer-input";
import { serverRuntime } from "@/lib/server/runtime";

export const dynamic = "force-dynamic";

/** Steer: add a directive; or, when plan review is on, approve the plan (optionally edited). */
export const POST = handle(async (req: Request, ctx: RouteContext<"/api/runs/[id]/directives">) => {
  const id = runIdOrNotFound((await ctx.params).id);
  const owner = await currentOwner(req, "research");
  const input = await readJson(req, directiveRequestSchema);
  const rt = await serverRuntime();
  await enforceRateLimit(rt, req, "actions");
  if ("approvePlan" in input) {
    await approvePlan(rt, id, owner, input.edits, input.add);
    return Response.json({ status: "queued" }, { status: 202 });
  }
  return Response.json(await addUserDirective(rt, id, owner, input), { status: 201 });
});
