import { handle, readJson } from "@/lib/http";
import { deleteAccount, deleteAccountSchema } from "@/lib/server/accounts/delete";
import { signOutCookies } from "@/lib/server/accounts/sign-out";
import { requireCaller } from "@/lib/server/auth/caller";
import { serverRuntime } from "@/lib/server/runtime";

export const dynamic = "force-dynamic";

/**
 * Deletes the caller's account and everything it owns, then signs them out. A signed-in session
 * only (API tokens get 403); the body confirms with the account's email: {"confirmEmail": "…"}.
 */
export const DELETE = handle(async (req: Request) => {
  const caller = await requireCaller(req, "session");
  const input = await readJson(req, deleteAccountSchema);
  await deleteAccount(await serverRuntime(), caller, input);
  // The session rows are gone with the account; this expires the browser's cookies.
  return Response.json({ deleted: true }, { headers: await signOutCookies(req.headers) });
});
