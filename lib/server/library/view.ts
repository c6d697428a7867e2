/**
 * Reading the document library (GET /api/library, GET /api/library/:id and the library pages).
 * Adding, sharing and deleting are add.ts, share.ts and delete.ts.
 */
import {
  getLibraryDocument,
  type LibraryDocumentFull,
  type LibraryDocumentSummary,
  listLibraryDocuments,
} from "../../../db/queries/library.ts";
import { AppError } from "../../errors.ts";
import type { Runtime } from "../../jobs/runtime.ts";

/** What a person sees of a document: whether it is theirs, never who else owns it. */
export type LibraryDocumentView<D extends LibraryDocumentSummary = LibraryDocumentSummary> = Omit<
  D,
  "ownerId"
> & {
  own: boolean;
};

export function viewOf<D extends LibraryDocumentSummary>(doc: D, ownerId: string): LibraryDocumentView<D> {
  const { ownerId: docOwner, ...rest } = doc;
  return { ...rest, own: docOwner === ownerId };
}

export async function listLibrary(rt: Runtime, ownerId: string): Promise<LibraryDocumentView[]> {
  return (await listLibraryDocuments(rt.handle.db, ownerId)).map((d) => viewOf(d, ownerId));
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
