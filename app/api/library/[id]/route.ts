import { z } from "zod";
import { AppError } from "@/lib/errors";
import { handle } from "@/lib/http";
import { deleteOwnLibraryDocument, getOwnLibraryDocument } from "@/lib/server/library";
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
  const doc = await getOwnLibraryDocument(await serverRuntime(), id, await currentOwner(req));
  return Response.json({ document: doc });
});

export const DELETE = handle(async (req: Request, ctx: RouteContext<"/api/library/[id]">) => {
  const id = libraryIdOrNotFound((await ctx.params).id);
  await deleteOwnLibraryDocument(await serverRuntime(), id, await currentOwner(req));
  return new Response(null, { status: 204 });
});
