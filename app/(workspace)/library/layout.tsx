import type { ReactNode } from "react";
import { PageMessages } from "@/components/page-messages";

/** The library pages, with their client components' words (no other page's document carries them). */
export default function LibraryLayout({ children }: { children: ReactNode }) {
  return <PageMessages part="library">{children}</PageMessages>;
}
