import type { ReactNode } from "react";
import { PageMessages } from "@/components/page-messages";

/** The admin pages, with their client components' words (no other page's document carries them). */
export default function AdminLayout({ children }: { children: ReactNode }) {
  return <PageMessages part="admin">{children}</PageMessages>;
}
