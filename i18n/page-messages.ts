/**
 * Which messages a page's document carries for its client components. Every page carries the
 * catalogue but the namespaces only one part of the app reads (the run page's progress, activity
 * and panels; the home, account, admin, library and knowledge pages' forms and tables), so a share
 * page or a run page does not ship the other pages' words; each part adds its own
 * (components/page-messages.tsx).
 */
import type { AbstractIntlMessages } from "next-intl";

/** The namespaces only some pages' client components read, by the part of the app that adds them. */
export const pageNamespaces = {
  run: ["progress", "run", "runEvents"],
  home: ["home", "setup", "importBundle"],
  // The account's panels, and its shared badge on library and knowledge rows and admin tables.
  account: ["account"],
  admin: ["admin", "account"],
  library: ["library", "account"],
  knowledge: ["knowledge", "account"],
} as const satisfies Record<string, readonly string[]>;

export type PagePart = keyof typeof pageNamespaces;

/** Every namespace some pages add themselves: left out of the document's own set. */
export const pageOnlyNamespaces: readonly string[] = [...new Set(Object.values(pageNamespaces).flat())];

/** The messages without the given top-level namespaces. */
export function withoutNamespaces(
  messages: AbstractIntlMessages,
  names: readonly string[],
): AbstractIntlMessages {
  return Object.fromEntries(Object.entries(messages).filter(([name]) => !names.includes(name)));
}

/** Only the given top-level namespaces of the messages. */
export function onlyNamespaces(
  messages: AbstractIntlMessages,
  names: readonly string[],
): AbstractIntlMessages {
  return Object.fromEntries(Object.entries(messages).filter(([name]) => names.includes(name)));
}
