/** The locales the app has messages for (messages/<locale>.json). */
export const locales = ["en"] as const;
export type Locale = (typeof locales)[number];
export const defaultLocale: Locale = "en";
