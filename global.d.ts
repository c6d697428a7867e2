import type { Locale } from "./i18n/locale";
import type messages from "./messages/en.json";

// next-intl checks message keys and arguments against the English module at compile time.
declare module "next-intl" {
  interface AppConfig {
    Locale: Locale;
    Messages: typeof messages;
  }
}
