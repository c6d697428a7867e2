import { z } from "zod";
import { AppError } from "@/lib/errors";
import { handle, readJson } from "@/lib/http";
import { requireCaller } from "@/lib/server/auth/caller";
import { reviewKnowledge, reviewKnowledgeSchema } from "@/lib/server/knowledge/review";
import { serverRuntime } from "@/lib/server/runtime";

export const dynamic = "force-dynamic";

export const PATCH = handle(async (req: Request, ctx: RouteContext<"/api/knowledge/[id]">) => {
  const { id } = await ctx.params;
  if (!z.uuid().safeParse(id).success) throw new AppError("not_found", "No such knowledge item.");
  const caller = await requireCaller(req, "research");
  const input = await readJson(req, reviewKnowledgeSchema);
  const [item] = await reviewKnowledge(await serverRuntime(), caller, [id], input);
  return Response.json({ item });
});
