import { z } from "zod";
import { AppError } from "@/lib/errors";
import { handle, readJson } from "@/lib/http";
import { requireCaller } from "@/lib/server/auth/caller";
import { deleteOwnLibraryDocument } from "@/lib/server/library/delete";
import { libraryShareSchema, shareOwnLibraryDocument } from "@/lib/server/library/share";
import { getOwnLibraryDocument } from "@/lib/server/library/view";
import { currentOwner } from "@/lib/server/owner";
import { serverRuntime } from "@/lib/server/runtime";

export const dynamic = "force-dynamic";

const uuid = z.uuid();

/** A malformed id cannot name a document, so it is simply not found. */
function libraryIdOrNotFound(raw: string): string {
  if (!uuid.safeParse(raw).success) throw new AppError("not_found", "No such library document.");
  return raw;
}

export const GET = handle(async (req: Request, ctx: RouteContext<"/api/library/[id]">) => {
  const id = libraryIdOrNotFound((await ctx.params).id);
  const doc = await getOwnLibraryDocument(await serverRuntime(), id, await currentOwner(req, "read"));
  return Response.json({ document: doc });
});

export const DELETE = handle(async (req: Request, ctx: RouteContext<"/api/library/[id]">) => {
  const id = libraryIdOrNotFound((await ctx.params).id);
  await deleteOwnLibraryDocument(await serverRuntime(), id, await currentOwner(req, "research"));
  return new Response(null, { status: 204 });
});

/** Admins: share one of their documents with every account ({shared: true}) or take it back. */
export const PATCH = handle(async (req: Request, ctx: RouteContext<"/api/library/[id]">) => {
  const id = libraryIdOrNotFound((await ctx.params).id);
  const caller = await requireCaller(req, "research");
  const { shared } = await readJson(req, libraryShareSchema);
  if (caller.role !== "admin")
    throw new AppError("forbidden", "Only an admin can share documents with everyone.");
  await shareOwnLibraryDocument(await serverRuntime(), id, caller.userId, shared);
  return Response.json({ id, shared });
});
