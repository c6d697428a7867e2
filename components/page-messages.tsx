import { getMessages } from "next-intl/server";
import type { ReactNode } from "react";
import { onlyNamespaces, type PagePart, pageNamespaces } from "@/i18n/page-messages";
import { MoreMessages } from "./more-messages";

/** Gives the client components below the words of one part of the app (i18n/page-messages.ts). */
export async function PageMessages({ part, children }: { part: PagePart; children: ReactNode }) {
  return (
    <MoreMessages messages={onlyNamespaces(await getMessages(), pageNamespaces[part])}>
      {children}
    </MoreMessages>
  );
}
