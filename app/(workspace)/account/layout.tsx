import type { ReactNode } from "react";
import { PageMessages } from "@/components/page-messages";

/** The account page, with their client components' words (no other page's document carries them). */
export default function AccountLayout({ children }: { children: ReactNode }) {
  return <PageMessages part="account">{children}</PageMessages>;
}
