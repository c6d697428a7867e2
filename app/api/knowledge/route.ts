import { AppError } from "@/lib/errors";
import { handle, readJson } from "@/lib/http";
import { addKnowledgeSchema, addOwnKnowledgeItem } from "@/lib/server/knowledge/add";
import { knowledgeStatusSchema, listKnowledgeItems } from "@/lib/server/knowledge/list";
import { currentOwner } from "@/lib/server/owner";
import { serverRuntime } from "@/lib/server/runtime";

export const dynamic = "force-dynamic";

export const GET = handle(async (req: Request) => {
  const raw = new URL(req.url).searchParams.get("status");
  const status = raw === null ? undefined : knowledgeStatusSchema.safeParse(raw);
  if (status && !status.success) {
    throw new AppError("bad_request", "status must be provisional, established or deprecated.");
  }
  const items = await listKnowledgeItems(await serverRuntime(), await currentOwner(req, "read"), {
    status: status?.data,
  });
  return Response.json({ items });
});

export const POST = handle(async (req: Request) => {
  const owner = await currentOwner(req, "research");
  const input = await readJson(req, addKnowledgeSchema);
  const item = await addOwnKnowledgeItem(await serverRuntime(), owner, input);
  return Response.json({ item }, { status: 201 });
});
