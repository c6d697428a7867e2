/** The owner's document library: listing, adding, reading and deleting documents. */
import {
  deleteLibraryDocument,
  getLibraryDocument,
  insertLibraryDocument,
  type LibraryDocumentFull,
  type LibraryDocumentSummary,
  listLibraryDocuments,
  type NewLibraryDocument,
} from "../../db/queries/library.ts";
import { AppError } from "../errors.ts";
import type { Runtime } from "../jobs/runtime.ts";

export function listLibrary(rt: Runtime, ownerId: string): Promise<LibraryDocumentSummary[]> {
  return listLibraryDocuments(rt.handle.db, ownerId);
}

export function addToLibrary(
  rt: Runtime,
  ownerId: string,
  doc: Omit<NewLibraryDocument, "ownerId">,
): Promise<LibraryDocumentSummary> {
  return insertLibraryDocument(rt.handle.db, { ownerId, ...doc });
}

/** One of the owner's documents with its text; a 404 for anyone else's. */
export async function getOwnLibraryDocument(
  rt: Runtime,
  id: string,
  ownerId: string,
): Promise<LibraryDocumentFull> {
  const doc = await getLibraryDocument(rt.handle.db, id, ownerId);
  if (!doc) throw new AppError("not_found", "No such library document.");
  return doc;
}

export async function deleteOwnLibraryDocument(rt: Runtime, id: string, ownerId: string): Promise<void> {
  if (!(await deleteLibraryDocument(rt.handle.db, id, ownerId))) {
    throw new AppError("not_found", "No such library document.");
  }
}
