import type { Metadata } from "next";
import { headers } from "next/headers";
import Link from "next/link";
import { getTranslations } from "next-intl/server";
import { ApiReference } from "@/components/api-reference";
import { publicOrigin } from "@/lib/server/auth/settings";
import { openApiDocument } from "@/lib/server/openapi/document";

export async function generateMetadata(): Promise<Metadata> {
  return { title: (await getTranslations("apiDocs"))("metaTitle") };
}

/**
 * Open to anyone, like the document it shows (/api/openapi.json): the API reference, rendered by
 * the app's own copy of the viewer under the pages' policy. The document is built here and handed
 * to the viewer, so the page needs no request of its own to load it.
 */
export default async function ApiReferencePage() {
  const [h, t] = await Promise.all([headers(), getTranslations("apiDocs")]);
  const origin = publicOrigin(new Request(`http://${h.get("host") ?? "localhost"}/`, { headers: h }));
  return (
    <>
      <header className="sticky top-0 z-10 border-b border-zinc-200 bg-zinc-50 dark:border-zinc-800 dark:bg-zinc-950">
        <div className="mx-auto flex max-w-7xl flex-wrap items-baseline gap-x-4 gap-y-1 px-4 py-3">
          <Link href="/" className="text-lg font-semibold tracking-tight">
            Deep Research
          </Link>
          <h1 className="text-base font-medium">{t("title")}</h1>
          <a href="/api/openapi.json" className="text-sm text-blue-700 underline dark:text-blue-400">
            {t("document")}
          </a>
        </div>
      </header>
      <main>
        <ApiReference document={JSON.parse(JSON.stringify(openApiDocument(origin)))} />
      </main>
    </>
  );
}
