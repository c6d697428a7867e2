import type { Metadata } from "next";
import { headers } from "next/headers";
import { getTranslations } from "next-intl/server";
import { serverRuntime } from "@/lib/server/runtime";
import { deadShareReason } from "@/lib/server/shares/view";

export async function generateMetadata(): Promise<Metadata> {
  const t = await getTranslations("share.page");
  return { title: t("deadMetaTitle"), robots: { index: false, follow: false }, referrer: "no-referrer" };
}

/** The token of the share page being answered (proxy.ts passes the request's path on). */
async function requestedToken(): Promise<string> {
  const path = (await headers()).get("x-request-path") ?? "";
  return decodeURIComponent(path.match(/^\/share\/([^/?#]+)/)?.[1] ?? "");
}

/**
 * A share link that opens no report (still a 404): what happened to it — unknown, revoked or
 * expired — and what its holder can do, in the shared pages' own frame.
 */
export default async function DeadShareLink() {
  const t = await getTranslations("share");
  const reason = await deadShareReason(await serverRuntime(), await requestedToken());
  return (
    <article data-testid="dead-share" data-reason={reason} className="max-w-2xl space-y-4">
      <h1 className="text-2xl font-semibold tracking-tight">{t(`deadTitle.${reason}`)}</h1>
      <p>{t(`deadText.${reason}`)}</p>
      <p className="text-sm text-muted">{t("about")}</p>
    </article>
  );
}
