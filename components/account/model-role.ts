/** A model role's name in the page's language (usage tables, the system page); an unknown one as stored. */
import { useTranslations } from "next-intl";

const knownRoles = ["supervisor", "researcher", "compression", "summarization", "synthesis"] as const;
type KnownRole = (typeof knownRoles)[number];
const isKnown = (role: string): role is KnownRole => (knownRoles as readonly string[]).includes(role);

export function useModelRoleName(): (role: string) => string {
  const t = useTranslations("account.usage.roles");
  return (role) => (isKnown(role) ? t(role) : role.replaceAll("_", " "));
}
