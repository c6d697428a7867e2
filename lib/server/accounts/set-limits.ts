/** An admin sets a person's run limits (PUT /api/admin/users/{id}/limits). What they mean: limits.ts. */
import { findUser } from "../../../db/queries/accounts.ts";
import { saveUserLimits } from "../../../db/queries/user-limits.ts";
import { AppError } from "../../errors.ts";
import type { Runtime } from "../runtime.ts";
import type { UserLimitsInput, UserLimitsView } from "./limits.ts";

export { type UserLimitsInput, userLimitsSchema } from "./limits.ts";

/** Sets a person's limits (null: the server's default); 404 for an unknown account. */
export async function setUserLimits(
  rt: Runtime,
  userId: string,
  input: UserLimitsInput,
): Promise<UserLimitsView> {
  const db = rt.handle.db;
  if (!(await findUser(db, userId))) throw new AppError("not_found", "No such account.");
  const row = await saveUserLimits(db, userId, input);
  return { userId, maxConcurrentRuns: row.maxConcurrentRuns, monthlyCostLimitUsd: row.monthlyCostLimitUsd };
}
