import type { ReactNode } from "react";
import { PageMessages } from "@/components/page-messages";

/** The knowledge page, with their client components' words (no other page's document carries them). */
export default function KnowledgeLayout({ children }: { children: ReactNode }) {
  return <PageMessages part="knowledge">{children}</PageMessages>;
}
