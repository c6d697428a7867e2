import { useTranslations } from "next-intl";

const known = ["library", "searxng", "tavily", "exa", "brave"] as const;

/** A search provider's name in the page's language; one this version does not know keeps the server's label. */
export function useProviderLabel(): (provider: { name: string; label: string }) => string {
  const t = useTranslations("home.options.providers");
  return (p) =>
    (known as readonly string[]).includes(p.name) ? t(p.name as (typeof known)[number]) : p.label;
}
