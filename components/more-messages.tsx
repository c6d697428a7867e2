"use client";

import { type AbstractIntlMessages, NextIntlClientProvider, useLocale, useMessages } from "next-intl";
import { type ReactNode, useMemo } from "react";

/**
 * Adds namespaces to the messages the client components below it read (the document's own set
 * leaves out those only one page needs: i18n/page-messages.ts). The locale, formats and time zone
 * stay the ones of the provider above.
 */
export function MoreMessages({
  messages,
  children,
}: {
  messages: AbstractIntlMessages;
  children: ReactNode;
}) {
  const locale = useLocale();
  const inherited = useMessages();
  const merged = useMemo(() => ({ ...inherited, ...messages }), [inherited, messages]);
  return (
    <NextIntlClientProvider locale={locale} messages={merged}>
      {children}
    </NextIntlClientProvider>
  );
}
