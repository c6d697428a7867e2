/**
 * The language switcher of the header and the sign-in pages: one submit button per language, each
 * named in its own language. A plain form posting to a server action, so it works before the
 * page's JavaScript has loaded; the action saves the choice and comes back to this page.
 */
import { headers } from "next/headers";
import { getLocale, getTranslations } from "next-intl/server";
import { localeNames, locales } from "@/i18n/locale";
import { chooseLocaleAction } from "@/lib/server/actions/locale";

export async function LocaleSwitcher() {
  const [current, t, requestHeaders] = await Promise.all([getLocale(), getTranslations("locale"), headers()]);
  return (
    <form
      action={chooseLocaleAction}
      aria-label={t("label")}
      className="flex items-center gap-1 text-sm"
      data-testid="locale-switcher"
    >
      <input type="hidden" name="next" value={requestHeaders.get("x-request-path") ?? "/"} />
      {locales.map((locale) => (
        <button
          key={locale}
          type="submit"
          name="locale"
          value={locale}
          lang={locale}
          aria-pressed={locale === current}
          title={locale === current ? t("current", { name: localeNames[locale] }) : undefined}
          className="rounded px-1.5 py-0.5 hover:bg-zinc-100 aria-pressed:font-semibold aria-pressed:underline dark:hover:bg-zinc-800"
        >
          {localeNames[locale]}
        </button>
      ))}
    </form>
  );
}
