import { getRequestConfig } from "next-intl/server";
import { defaultLocale } from "./locale";

/**
 * The messages and locale of one request. English only for now: every page renders in `defaultLocale`;
 * choosing a locale per person or per request comes with the languages work.
 */
export default getRequestConfig(async () => ({
  locale: defaultLocale,
  messages: (await import(`../messages/${defaultLocale}.json`)).default,
}));
