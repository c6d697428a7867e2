/** Adding a document to the owner's library, within QUOTA_LIBRARY_MB. */
import { insertLibraryDocument, type NewLibraryDocument } from "../../../db/queries/library.ts";
import { assertLibraryRoom } from "../../jobs/quotas.ts";
import type { Runtime } from "../../jobs/runtime.ts";
import { type Env, readLibraryRequest } from "./ingest.ts";
import { type LibraryDocumentView, viewOf } from "./view.ts";

/**
 * Adding a document from a request (POST /api/library, and the library page's form as the same
 * request): a full library is refused before the document is read; a document too big for it, after.
 */
export async function addDocumentFromRequest(
  rt: Runtime,
  ownerId: string,
  req: Request,
  env: Env = process.env,
): Promise<LibraryDocumentView> {
  await assertLibraryRoom(rt.handle.db, ownerId);
  return addToLibrary(rt, ownerId, await readLibraryRequest(req, env));
}

/** Stores a document; one that would take the owner's library past QUOTA_LIBRARY_MB is refused (413). */
export async function addToLibrary(
  rt: Runtime,
  ownerId: string,
  doc: Omit<NewLibraryDocument, "ownerId">,
): Promise<LibraryDocumentView> {
  await assertLibraryRoom(rt.handle.db, ownerId, Buffer.byteLength(doc.content, "utf8"));
  return viewOf(await insertLibraryDocument(rt.handle.db, { ownerId, ...doc }), ownerId);
}
