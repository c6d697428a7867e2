import type { Metadata } from "next";
import { notFound } from "next/navigation";
import { createTranslator } from "next-intl";
import { getTranslations } from "next-intl/server";
import { cache } from "react";
import { firstParagraph, SharedReportView } from "@/components/share/shared-report";
import { serverRuntime } from "@/lib/server/runtime";
import { sharedReport } from "@/lib/server/shares/view";

export const dynamic = "force-dynamic";

/** One read per request for both the metadata and the page; nothing for a malformed token. */
const loadShared = cache(async (token: string) => {
  if (!/^[A-Za-z0-9_-]{20,100}$/.test(token)) return undefined;
  return sharedReport(await serverRuntime(), token);
});

/**
 * Not for search engines, and the link (the token is in it) is never sent on as a Referer. A link
 * preview gets the question and the report's first paragraph; no image (nothing remote to fetch).
 */
export async function generateMetadata({ params }: PageProps<"/share/[token]">): Promise<Metadata> {
  const t = await getTranslations("share.page");
  const base: Metadata = {
    title: t("metaTitle"),
    robots: { index: false, follow: false },
    referrer: "no-referrer",
  };
  const shared = await loadShared((await params).token);
  if (!shared) return base;
  const description = shared.report ? firstParagraph(shared.report.markdown) : undefined;
  return {
    ...base,
    title: `${shared.question} · Deep Research`,
    ...(description ? { description } : {}),
    openGraph: {
      type: "article",
      title: shared.question,
      ...(description ? { description } : {}),
      publishedTime: new Date(shared.date).toISOString(),
      siteName: "Deep Research",
    },
  };
}

/** The read-only shared report: no login, only a live token; a revoked, expired or unknown one is not found. */
export default async function SharedReportPage({ params }: PageProps<"/share/[token]">) {
  const { token } = await params;
  const shared = await loadShared(token);
  if (!shared) notFound();
  // The owner allowed downloads for this link: the PDF route answers the same token.
  const pdfHref = shared.allowDownload ? `/share/${token}/report.pdf` : undefined;
  // The page's words follow the reader; the one it writes into the report follows the report.
  // (i18n/request.ts gives this request the reader's messages, so the report's are loaded here.)
  const messages = (await import(`../../../messages/${shared.language}.json`)).default;
  const inReport = createTranslator({ locale: shared.language, messages, namespace: "share.page" });
  return (
    <SharedReportView
      shared={shared}
      token={token}
      pdfHref={pdfHref}
      privateDocument={inReport("privateDocument")}
    />
  );
}
