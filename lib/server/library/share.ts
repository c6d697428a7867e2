/** Sharing a library document with every account (PATCH /api/library/:id; admins, their own documents). */
import { z } from "zod";
import { setDocumentShared } from "../../../db/queries/library.ts";
import { AppError } from "../../errors.ts";
import type { Runtime } from "../../jobs/runtime.ts";

/** The body of PATCH /api/library/:id (admins, their own documents). */
export const libraryShareSchema = z.strictObject({ shared: z.boolean() });

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
