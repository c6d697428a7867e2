/**
 * Which messages a page's document carries for its client components. Every page carries the
 * catalogue but the namespaces only the run page reads (its progress, activity and panels: about
 * half of it), so a share page or the home page does not ship the run page's words; the run page
 * adds them (components/more-messages.tsx).
 */
import type { AbstractIntlMessages } from "next-intl";

export const runPageNamespaces = ["progress", "run", "runEvents"] as const;

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
