/**
 * Who is asking. Accounts are not built yet: every request acts as the single local owner, so a
 * self-hosted instance works with no login. Every read still goes through an owner check, so adding
 * accounts later changes this function only.
 */
export const LOCAL_OWNER = "local";

export async function currentOwner(_req?: Request): Promise<string> {
  return LOCAL_OWNER;
}
