import type { Metadata } from "next";
import { notFound } from "next/navigation";
import { SharedReportView } from "@/components/share/shared-report";
import { serverRuntime } from "@/lib/server/runtime";
import { sharedReport } from "@/lib/server/shares";

export const dynamic = "force-dynamic";

// Not for search engines, and the link (the token is in it) is never sent on as a Referer.
export const metadata: Metadata = {
  title: "Shared report · Deep Research",
  robots: { index: false, follow: false },
  referrer: "no-referrer",
};

/** The read-only shared report: no login, only a live token; a revoked, expired or unknown one is not found. */
export default async function SharedReportPage({ params }: PageProps<"/share/[token]">) {
  const { token } = await params;
  if (!/^[A-Za-z0-9_-]{20,100}$/.test(token)) notFound();
  const shared = await sharedReport(await serverRuntime(), token);
  if (!shared) notFound();
  return <SharedReportView shared={shared} />;
}
