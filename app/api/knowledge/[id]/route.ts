import { z } from "zod";
import { AppError } from "@/lib/errors";
import { handle, readJson } from "@/lib/http";
import { requireCaller } from "@/lib/server/auth/caller";
import {
  reviewKnowledgeSchema,
  reviewOwnKnowledgeItem,
  shareOwnKnowledgeItem,
} from "@/lib/server/knowledge/index";
import { serverRuntime } from "@/lib/server/runtime";

export const dynamic = "force-dynamic";

export const PATCH = handle(async (req: Request, ctx: RouteContext<"/api/knowledge/[id]">) => {
  const { id } = await ctx.params;
  if (!z.uuid().safeParse(id).success) throw new AppError("not_found", "No such knowledge item.");
  const caller = await requireCaller(req, "research");
  const input = await readJson(req, reviewKnowledgeSchema);
  const rt = await serverRuntime();
  if (input.action === "share" || input.action === "unshare") {
    if (caller.role !== "admin")
      throw new AppError("forbidden", "Only an admin can share knowledge with everyone.");
    return Response.json({
      item: await shareOwnKnowledgeItem(rt, caller.userId, id, input.action === "share"),
    });
  }
  const patch =
    input.action === "approve"
      ? { status: "established" as const }
      : input.action === "reject"
        ? { status: "deprecated" as const }
        : { content: input.content, category: input.category };
  const item = await reviewOwnKnowledgeItem(rt, caller.userId, id, patch);
  return Response.json({ item });
});
