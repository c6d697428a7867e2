import { z } from "zod";
import { handle, readJson } from "@/lib/http";
import { directivePriorities } from "@/lib/research/vocabulary";
import { runIdOrNotFound } from "@/lib/server/ids";
import { currentOwner } from "@/lib/server/owner";
import { addUserDirective, approvePlan } from "@/lib/server/run-actions";
import { serverRuntime } from "@/lib/server/runtime";

export const dynamic = "force-dynamic";

const topic = z.string().trim().min(5, "topic must be at least 5 characters").max(2000);

/** Steer: add a directive; or, when plan review is on, approve the plan (optionally edited). */
const bodySchema = z.union([
  z.strictObject({
    topic,
    priority: z.enum(["critical", "normal", "low"]).default("normal"),
  }),
  z.strictObject({
    approvePlan: z.literal(true),
    edits: z
      .array(
        z.strictObject({
          id: z.uuid(),
          topic: topic.optional(),
          priority: z.enum(directivePriorities).optional(),
          drop: z.boolean().optional(),
        }),
      )
      .max(50)
      .default([]),
  }),
]);

export const POST = handle(async (req: Request, ctx: RouteContext<"/api/runs/[id]/directives">) => {
  const id = runIdOrNotFound((await ctx.params).id);
  const input = await readJson(req, bodySchema);
  const rt = await serverRuntime();
  const owner = await currentOwner(req);
  if ("approvePlan" in input) {
    await approvePlan(rt, id, owner, input.edits);
    return Response.json({ status: "queued" }, { status: 202 });
  }
  return Response.json(await addUserDirective(rt, id, owner, input), { status: 201 });
});
