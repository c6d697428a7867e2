import { getDb } from "@/db/client";
import { insertLibraryDocument, listLibraryDocuments } from "@/db/queries/library";
import { handle } from "@/lib/http";
import { readLibraryRequest } from "@/lib/server/library-ingest";
import { currentOwner } from "@/lib/server/owner";

export const dynamic = "force-dynamic";

export const GET = handle(async (req: Request) => {
  const owner = await currentOwner(req);
  return Response.json({ documents: await listLibraryDocuments(await getDb(), owner) });
});

/** Adds a document: JSON {text, format, title?} or {url, title?}, or a multipart "file" upload. */
export const POST = handle(async (req: Request) => {
  const owner = await currentOwner(req);
  const doc = await readLibraryRequest(req, process.env);
  const stored = await insertLibraryDocument(await getDb(), { ownerId: owner, ...doc });
  return Response.json({ id: stored.id, document: stored }, { status: 201 });
});
