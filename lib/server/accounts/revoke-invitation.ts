/** An admin withdraws an open invitation: its link signs nobody up from now on. */
import { revokeInvitation } from "../../../db/queries/accounts.ts";
import { AppError } from "../../errors.ts";
import type { Runtime } from "../runtime.ts";

export async function revokeOpenInvitation(rt: Runtime, id: string): Promise<void> {
  if (!(await revokeInvitation(rt.handle.db, id))) {
    throw new AppError("not_found", "No such open invitation.");
  }
}
