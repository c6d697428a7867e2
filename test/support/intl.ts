// Client components read their words through next-intl: a test renders them inside the English messages.
import { NextIntlClientProvider } from "next-intl";
import { createElement, type ReactNode } from "react";
import en from "../../messages/en.json";

export function withMessages(node: ReactNode) {
  const props = { locale: "en" as const, timeZone: "UTC", messages: en, children: node };
  return createElement(NextIntlClientProvider, props);
}
