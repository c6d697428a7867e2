import { z } from "zod";
import { AppError } from "@/lib/errors";
import { handle, readJson } from "@/lib/http";
import { knowledgeCategories } from "@/lib/research/vocabulary";
import { reviewOwnKnowledgeItem } from "@/lib/server/knowledge";
import { currentOwner } from "@/lib/server/owner";
import { serverRuntime } from "@/lib/server/runtime";

export const dynamic = "force-dynamic";

/** Review actions: approve → established, reject → deprecated, edit → new content/category. */
const reviewSchema = z
  .strictObject({
    action: z.enum(["approve", "reject", "edit"]),
    content: z.string().trim().min(3).max(500).optional(),
    category: z.enum(knowledgeCategories).optional(),
  })
  .refine((v) => v.action !== "edit" || v.content || v.category, {
    message: "edit needs content or category",
  });

export const PATCH = handle(async (req: Request, ctx: RouteContext<"/api/knowledge/[id]">) => {
  const { id } = await ctx.params;
  if (!z.uuid().safeParse(id).success) throw new AppError("not_found", "No such knowledge item.");
  const input = await readJson(req, reviewSchema);
  const patch =
    input.action === "approve"
      ? { status: "established" as const }
      : input.action === "reject"
        ? { status: "deprecated" as const }
        : { content: input.content, category: input.category };
  const item = await reviewOwnKnowledgeItem(await serverRuntime(), await currentOwner(req), id, patch);
  return Response.json({ item });
});
