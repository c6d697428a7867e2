import { z } from "zod";
import { getDb } from "@/db/client";
import { deleteLibraryDocument, getLibraryDocument } from "@/db/queries/library";
import { AppError } from "@/lib/errors";
import { handle } from "@/lib/http";
import { currentOwner } from "@/lib/server/owner";

export const dynamic = "force-dynamic";

const uuid = z.uuid();

/** A malformed id cannot name a document, so it is simply not found. */
function libraryIdOrNotFound(raw: string): string {
  if (!uuid.safeParse(raw).success) throw new AppError("not_found", "No such library document.");
  return raw;
}

export const GET = handle(async (req: Request, ctx: RouteContext<"/api/library/[id]">) => {
  const id = libraryIdOrNotFound((await ctx.params).id);
  const doc = await getLibraryDocument(await getDb(), id, await currentOwner(req));
  if (!doc) throw new AppError("not_found", "No such library document.");
  return Response.json({ document: doc });
});

export const DELETE = handle(async (req: Request, ctx: RouteContext<"/api/library/[id]">) => {
  const id = libraryIdOrNotFound((await ctx.params).id);
  const deleted = await deleteLibraryDocument(await getDb(), id, await currentOwner(req));
  if (!deleted) throw new AppError("not_found", "No such library document.");
  return new Response(null, { status: 204 });
});
