// Client components read their words through next-intl: a test renders them inside the English messages.
import { createTranslator, NextIntlClientProvider } from "next-intl";
import { createElement, type ReactNode } from "react";
import { type ReportNames, type ReportTranslator, reportNames } from "../../components/report/verdict.ts";
import de from "../../messages/de.json";
import en from "../../messages/en.json";
import zh from "../../messages/zh.json";

const catalogues = { en, de, zh };

export function withMessages(node: ReactNode, locale: keyof typeof catalogues = "en") {
  const props = { locale, timeZone: "UTC", messages: catalogues[locale] as typeof en, children: node };
  return createElement(NextIntlClientProvider, props);
}

/** The report renderer's words (markdownTree takes them from its caller) in English. */
export function englishReportNames(): ReportNames {
  return reportNames(
    createTranslator({ locale: "en", messages: en, namespace: "report" }) as ReportTranslator,
  );
}
