/** Ends the browser's session: the cookies that expire it, for a response to carry (after "Delete my account"). */
import { getAuth } from "../auth/instance.ts";

export async function signOutCookies(requestHeaders: Headers): Promise<Headers> {
  const auth = await getAuth();
  const signedOut = await auth.api.signOut({ headers: requestHeaders, returnHeaders: true });
  const headers = new Headers();
  for (const cookie of signedOut.headers.getSetCookie()) headers.append("set-cookie", cookie);
  return headers;
}
