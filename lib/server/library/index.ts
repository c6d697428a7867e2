/** The owner's document library: listing, adding, reading and deleting documents. */
import { z } from "zod";
import {
  deleteLibraryDocument,
  getLibraryDocument,
  insertLibraryDocument,
  type LibraryDocumentFull,
  type LibraryDocumentSummary,
  listLibraryDocuments,
  type NewLibraryDocument,
  setDocumentShared,
} from "../../../db/queries/library.ts";
import { AppError } from "../../errors.ts";
import { assertLibraryRoom } from "../../jobs/quotas.ts";
import type { Runtime } from "../../jobs/runtime.ts";
import { type Env, readLibraryRequest } from "./ingest.ts";

/** What a person sees of a document: whether it is theirs, never who else owns it. */
export type LibraryDocumentView<D extends LibraryDocumentSummary = LibraryDocumentSummary> = Omit<
  D,
  "ownerId"
> & {
  own: boolean;
};

function viewOf<D extends LibraryDocumentSummary>(doc: D, ownerId: string): LibraryDocumentView<D> {
  const { ownerId: docOwner, ...rest } = doc;
  return { ...rest, own: docOwner === ownerId };
}

/** The body of PATCH /api/library/:id (admins, their own documents). */
export const libraryShareSchema = z.strictObject({ shared: z.boolean() });

export async function listLibrary(rt: Runtime, ownerId: string): Promise<LibraryDocumentView[]> {
  return (await listLibraryDocuments(rt.handle.db, ownerId)).map((d) => viewOf(d, ownerId));
}

/** Admins only: share one of their own documents with every account, or take it back. */
export async function shareOwnLibraryDocument(
  rt: Runtime,
  id: string,
  ownerId: string,
  shared: boolean,
): Promise<void> {
  if (!(await setDocumentShared(rt.handle.db, id, ownerId, shared))) {
    throw new AppError("not_found", "No such library document.");
  }
}

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

/** One of the owner's documents (or a shared one) with its text; a 404 for anyone else's. */
export async function getOwnLibraryDocument(
  rt: Runtime,
  id: string,
  ownerId: string,
): Promise<LibraryDocumentView<LibraryDocumentFull>> {
  const doc = await getLibraryDocument(rt.handle.db, id, ownerId);
  if (!doc) throw new AppError("not_found", "No such library document.");
  return viewOf(doc, ownerId);
}

export async function deleteOwnLibraryDocument(rt: Runtime, id: string, ownerId: string): Promise<void> {
  if (!(await deleteLibraryDocument(rt.handle.db, id, ownerId))) {
    throw new AppError("not_found", "No such library document.");
  }
}
