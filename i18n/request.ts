import { getRequestConfig } from "next-intl/server";
import { requestLocale } from "@/lib/server/i18n/locale";

/**
 * The messages and locale of one request: the person's saved choice, else the switcher's cookie,
 * else the browser's Accept-Language, else English (lib/server/i18n/locale.ts).
 */
export default getRequestConfig(async () => {
  const locale = await requestLocale();
  return { locale, messages: (await import(`../messages/${locale}.json`)).default };
});
