import { getMessages } from "next-intl/server";
import type { ReactNode } from "react";
import { MoreMessages } from "@/components/more-messages";
import { adminPageNamespaces, onlyNamespaces } from "@/i18n/page-messages";

/** The admin pages: their client components' words, which no other page's document carries. */
export default async function AdminLayout({ children }: { children: ReactNode }) {
  return (
    <MoreMessages messages={onlyNamespaces(await getMessages(), adminPageNamespaces)}>
      {children}
    </MoreMessages>
  );
}
