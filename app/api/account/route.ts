import { handle, readJson } from "@/lib/http";
import { deleteAccount, deleteAccountSchema } from "@/lib/server/accounts/data";
import { requireCaller } from "@/lib/server/auth/caller";
import { getAuth } from "@/lib/server/auth/instance";
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
  const auth = await getAuth();
  const signedOut = await auth.api.signOut({ headers: req.headers, returnHeaders: true });
  const headers = new Headers();
  for (const cookie of signedOut.headers.getSetCookie()) headers.append("set-cookie", cookie);
  return Response.json({ deleted: true }, { headers });
});
