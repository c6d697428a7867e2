/** Deleting one of the owner's documents (DELETE /api/library/:id); a 404 for anyone else's. */
import { deleteLibraryDocument } from "../../../db/queries/library.ts";
import { AppError } from "../../errors.ts";
import type { Runtime } from "../../jobs/runtime.ts";

export async function deleteOwnLibraryDocument(rt: Runtime, id: string, ownerId: string): Promise<void> {
  if (!(await deleteLibraryDocument(rt.handle.db, id, ownerId))) {
    throw new AppError("not_found", "No such library document.");
  }
}
