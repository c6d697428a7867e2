/**
 * The translator the run page's pure modules take: next-intl's `t` over the whole catalogue
 * (`useTranslations()` in a component, `createTranslator({ locale, messages })` in a test), so they
 * return words in the page's language and stay testable without React.
 */
import type { useTranslations } from "next-intl";

export type Translate = ReturnType<typeof useTranslations<never>>;

/**
 * The message `<prefix>.<value>` for a word of the engine (a phase, a stop reason, a role), or the
 * value de-snaked when the messages have none (a word of an older or newer version).
 */
export function labelOf(t: Translate, prefix: string, value: string | null | undefined): string {
  if (!value) return "";
  const loose = t as unknown as { has(key: string): boolean; (key: string): string };
  const key = `${prefix}.${value}`;
  return loose.has(key) ? loose(key) : value.replaceAll("_", " ");
}
