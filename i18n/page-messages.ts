/**
 * Which messages a page's document carries for its client components. Every page carries the
 * catalogue but the namespaces only one part of the app reads (the run page's progress, activity
 * and panels; the admin pages' settings and tables), so a share page or the home page does not
 * ship their words; those pages add them (components/more-messages.tsx).
 */
import type { AbstractIntlMessages } from "next-intl";

export const runPageNamespaces = ["progress", "run", "runEvents"] as const;
export const adminPageNamespaces = ["admin"] as const;
/** Every namespace some pages add themselves: left out of the document's own set. */
export const pageOnlyNamespaces = [...runPageNamespaces, ...adminPageNamespaces] as const;

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
