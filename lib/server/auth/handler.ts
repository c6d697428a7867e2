/** The /api/auth/* route: better-auth answers with its own shapes; a misconfiguration is a clear JSON error. */
import { errorResponse } from "../../http.ts";
import { getAuth } from "./instance.ts";

export async function authHandler(req: Request): Promise<Response> {
  try {
    return await (await getAuth()).handler(req);
  } catch (e) {
    return errorResponse(e);
  }
}
