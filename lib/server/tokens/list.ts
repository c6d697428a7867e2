/** The person's tokens, newest first (GET /api/tokens and the account page). */
import { listApiTokens } from "../../../db/queries/tokens.ts";
import type { Runtime } from "../../jobs/runtime.ts";
import { type TokenView, tokenView } from "./view.ts";

export type { TokenView } from "./view.ts";

export async function listTokens(rt: Runtime, userId: string): Promise<TokenView[]> {
  return (await listApiTokens(rt.handle.db, userId)).map(tokenView);
}
