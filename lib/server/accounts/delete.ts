/**
 * A person's data (issue 16): "Delete my account" with everything it owns. "Export my data" is
 * export.ts.
 */
import { z } from "zod";
import type { Db } from "../../../db/client.ts";
import { deleteAccountRows } from "../../../db/queries/account-data.ts";
import { countOtherActiveAdmins, countUsers } from "../../../db/queries/accounts.ts";
import { lockOwnerRunSlots } from "../../../db/queries/runs.ts";
import { countUnfinishedRuns } from "../../../db/queries/user-limits.ts";
import { AppError } from "../../errors.ts";
import type { Caller } from "../auth/caller.ts";
import type { Runtime } from "../runtime.ts";

export const deleteAccountSchema = z.strictObject({
  /** The account's email address, typed by the person to confirm. */
  confirmEmail: z.string().trim().min(1, "type your email address to confirm").max(320),
});

/**
 * Deletes the caller's account and everything it owns, in one transaction. Refused (409) while a
 * run is unfinished (its worker could still write to it) and for the last admin while other
 * accounts exist (nobody could manage them afterwards).
 */
export async function deleteAccount(
  rt: Runtime,
  caller: Caller,
  input: z.infer<typeof deleteAccountSchema>,
): Promise<void> {
  if (input.confirmEmail.toLowerCase() !== caller.email.toLowerCase()) {
    throw new AppError(
      "validation_failed",
      "To delete your account, type your email address exactly as it is.",
    );
  }
  await rt.handle.db.transaction(async (t) => {
    const tx = t as unknown as Db;
    // The same lock run creation takes: no run can start between the check and the delete.
    await lockOwnerRunSlots(tx, caller.userId);
    const unfinished = await countUnfinishedRuns(tx, caller.userId);
    if (unfinished > 0) {
      throw new AppError(
        "conflict",
        `You have ${unfinished} run${unfinished === 1 ? "" : "s"} that ${unfinished === 1 ? "has" : "have"} not ended. Cancel ${unfinished === 1 ? "it" : "them"} first, then delete your account.`,
      );
    }
    if (caller.role === "admin" && (await countOtherActiveAdmins(tx, caller.userId)) === 0) {
      if ((await countUsers(tx)) > 1) {
        throw new AppError(
          "conflict",
          "You are the last admin and other accounts exist. Make someone else an admin first, then delete your account.",
        );
      }
    }
    await deleteAccountRows(tx, caller.userId);
  });
}
