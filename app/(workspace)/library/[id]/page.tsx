import type { Metadata } from "next";
import { notFound } from "next/navigation";
import { getLocale, getTranslations } from "next-intl/server";
import { z } from "zod";
import { absoluteTime, timeWords } from "@/components/home/time-format";
import { SourceLink } from "@/components/library/document-table";
import { typeKeys } from "@/components/library/format";
import { isAppError } from "@/lib/errors";
import { pageCaller } from "@/lib/server/auth/page";
import { getOwnLibraryDocument } from "@/lib/server/library/view";
import { serverRuntime } from "@/lib/server/runtime";

export const dynamic = "force-dynamic";

/** The caller's document (or one an admin shared); anything else is a 404, as in the API. */
async function load(id: string) {
  if (!z.uuid().safeParse(id).success) notFound();
  const caller = await pageCaller();
  try {
    return await getOwnLibraryDocument(await serverRuntime(), id, caller.userId);
  } catch (e) {
    if (isAppError(e) && e.code === "not_found") notFound();
    throw e;
  }
}

export async function generateMetadata({ params }: PageProps<"/library/[id]">): Promise<Metadata> {
  const doc = await load((await params).id);
  const t = await getTranslations("library");
  return { title: t("documentMetaTitle", { title: doc.title }) };
}

export default async function LibraryDocumentPage({ params }: PageProps<"/library/[id]">) {
  const doc = await load((await params).id);
  const t = await getTranslations("library");
  const words = timeWords((await getTranslations("format")) as Parameters<typeof timeWords>[0]);
  const type = typeKeys[doc.mimeType] ? t(`types.${typeKeys[doc.mimeType]}`) : doc.mimeType;
  const date = absoluteTime(doc.createdAt, await getLocale(), words);
  return (
    <article className="space-y-4">
      <p className="text-sm">
        <a href="/library" className="text-blue-700 hover:underline dark:text-blue-400">
          {t("document.back")}
        </a>
      </p>
      <header className="space-y-1">
        <h1 className="break-words text-2xl font-semibold tracking-tight">{doc.title}</h1>
        <p className="text-sm text-muted">
          {t.rich("document.facts", {
            type,
            chars: doc.chars,
            date,
            shared: doc.shared ? "yes" : "no",
            time: (chunks) => <time dateTime={doc.createdAt.toISOString()}>{chunks}</time>,
          })}
        </p>
        {doc.sourceUrl && (
          <p className="text-sm">
            {t.rich("document.from", {
              url: doc.sourceUrl,
              link: () => <SourceLink url={doc.sourceUrl as string} />,
            })}
          </p>
        )}
      </header>
      <section aria-label={t("document.storedText")} className="space-y-2">
        <h2 className="text-lg font-medium">{t("document.storedText")}</h2>
        <p className="text-xs text-muted">{t("document.storedHint")}</p>
        <div
          data-testid="document-text"
          className="whitespace-pre-wrap break-words rounded-lg border border-zinc-200 bg-white p-4 text-sm leading-relaxed dark:border-zinc-800 dark:bg-zinc-900"
        >
          {doc.content}
        </div>
      </section>
    </article>
  );
}
