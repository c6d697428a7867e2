import { z } from "zod";
import { addKnowledgeItem, listKnowledge } from "@/db/queries/knowledge";
import { AppError } from "@/lib/errors";
import { handle, readJson } from "@/lib/http";
import { getRuntime } from "@/lib/jobs/runtime";
import { currentOwner } from "@/lib/server/owner";

export const dynamic = "force-dynamic";

const statusSchema = z.enum(["provisional", "established", "deprecated"]);

export const GET = handle(async (req: Request) => {
  const raw = new URL(req.url).searchParams.get("status");
  const status = raw === null ? undefined : statusSchema.safeParse(raw);
  if (status && !status.success) {
    throw new AppError("bad_request", "status must be provisional, established or deprecated.");
  }
  const db = (await getRuntime()).handle.db;
  const items = await listKnowledge(db, await currentOwner(req), { status: status?.data });
  return Response.json({ items });
});

const addSchema = z.strictObject({
  category: z.enum(["finding", "lesson", "domain"]),
  content: z.string().trim().min(3).max(500),
});

export const POST = handle(async (req: Request) => {
  const input = await readJson(req, addSchema);
  const db = (await getRuntime()).handle.db;
  const item = await addKnowledgeItem(db, await currentOwner(req), input);
  return Response.json({ item }, { status: 201 });
});
