import { z } from "zod";
import { handle, readJson } from "@/lib/http";
import { getRuntime } from "@/lib/jobs/runtime";
import { runIdOrNotFound } from "@/lib/server/ids";
import { currentOwner } from "@/lib/server/owner";
import { addUserDirective } from "@/lib/server/run-actions";

export const dynamic = "force-dynamic";

const directiveSchema = z.strictObject({
  topic: z.string().trim().min(5, "topic must be at least 5 characters").max(2000),
  priority: z.enum(["critical", "normal", "low"]).default("normal"),
});

export const POST = handle(async (req: Request, ctx: RouteContext<"/api/runs/[id]/directives">) => {
  const id = runIdOrNotFound((await ctx.params).id);
  const input = await readJson(req, directiveSchema);
  const created = await addUserDirective(await getRuntime(), id, await currentOwner(req), input);
  return Response.json(created, { status: 201 });
});
