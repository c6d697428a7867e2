import type { Metadata } from "next";
import { notFound } from "next/navigation";
import { z } from "zod";
import { SourceLink } from "@/components/library/document-table";
import { formatDate, numberFormat, typeLabel } from "@/components/library/format";
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
  return { title: `${doc.title} · Library · Deep Research` };
}

export default async function LibraryDocumentPage({ params }: PageProps<"/library/[id]">) {
  const doc = await load((await params).id);
  return (
    <article className="space-y-4">
      <p className="text-sm">
        <a href="/library" className="text-blue-700 hover:underline dark:text-blue-400">
          ← Library
        </a>
      </p>
      <header className="space-y-1">
        <h1 className="break-words text-2xl font-semibold tracking-tight">{doc.title}</h1>
        <p className="text-sm text-muted">
          {typeLabel(doc.mimeType)} · {numberFormat.format(doc.chars)} characters · added{" "}
          <time dateTime={doc.createdAt.toISOString()}>{formatDate(doc.createdAt.toISOString())}</time>
          {doc.shared && " · shared with everyone"}
        </p>
        {doc.sourceUrl && (
          <p className="text-sm">
            From <SourceLink url={doc.sourceUrl} />
          </p>
        )}
      </header>
      <section aria-label="Stored text" className="space-y-2">
        <h2 className="text-lg font-medium">Stored text</h2>
        <p className="text-xs text-muted">The text research runs search and quote, as it was extracted.</p>
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
