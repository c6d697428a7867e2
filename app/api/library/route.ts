import { handle } from "@/lib/http";
import { addDocumentFromRequest } from "@/lib/server/library/add";
import { listLibrary } from "@/lib/server/library/view";
import { currentOwner } from "@/lib/server/owner";
import { enforceRateLimit } from "@/lib/server/rate-limits";
import { serverRuntime } from "@/lib/server/runtime";

export const dynamic = "force-dynamic";

export const GET = handle(async (req: Request) => {
  const owner = await currentOwner(req, "read");
  return Response.json({ documents: await listLibrary(await serverRuntime(), owner) });
});

/** Adds a document: JSON {text, format, title?} or {url, title?}, or a multipart "file" upload. */
export const POST = handle(async (req: Request) => {
  const rt = await serverRuntime();
  // Counted on arrival: reading and parsing the document is the work the limit protects.
  await enforceRateLimit(rt, req, "uploads");
  const owner = await currentOwner(req, "research", { body: "json-or-multipart" });
  const stored = await addDocumentFromRequest(rt, owner, req);
  return Response.json({ id: stored.id, document: stored }, { status: 201 });
});
