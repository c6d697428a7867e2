import type { Metadata } from "next";
import { getFormatter, getTranslations } from "next-intl/server";
import { type LibraryDocumentView, LibraryManager } from "@/components/library-manager";
import { parseSearchProviders } from "@/lib/search";
import { pageCaller } from "@/lib/server/auth/page";
import { listLibrary } from "@/lib/server/library/view";
import { serverRuntime } from "@/lib/server/runtime";

export const dynamic = "force-dynamic";

export async function generateMetadata(): Promise<Metadata> {
  const t = await getTranslations("library");
  return { title: t("metaTitle") };
}

const knownProviders = ["library", "searxng", "tavily", "exa", "brave"] as const;

/**
 * What runs on this server search by default (SEARCH_PROVIDERS), said plainly: whether the
 * documents here are used at all, and what makes a run use them when they are not.
 */
async function SearchNotice() {
  const t = await getTranslations("library");
  const format = await getFormatter();
  let providers: string[];
  try {
    providers = parseSearchProviders(process.env);
  } catch (e) {
    return (
      <p role="alert" data-testid="search-providers" className="text-sm text-red-700 dark:text-red-400">
        {(e as Error).message}
      </p>
    );
  }
  const names = format.list(
    providers.map((p) =>
      (knownProviders as readonly string[]).includes(p)
        ? t(`providers.${p as (typeof knownProviders)[number]}`)
        : p,
    ),
  );
  if (providers.includes("library")) {
    return (
      <p data-testid="search-providers" className="max-w-2xl text-muted">
        {t("searched", { names })}
      </p>
    );
  }
  return (
    <div
      data-testid="search-providers"
      className="max-w-2xl space-y-1 rounded-lg border border-amber-300 bg-amber-50 p-3 text-sm text-amber-900 dark:border-amber-800 dark:bg-amber-950 dark:text-amber-100"
    >
      <p className="font-medium">{t("notSearched")}</p>
      <p>{t.rich("howToSearch", { names, code: (chunks) => <code>{chunks}</code> })}</p>
    </div>
  );
}

export default async function LibraryPage() {
  const t = await getTranslations("library");
  const caller = await pageCaller();
  const documents = await listLibrary(await serverRuntime(), caller.userId);
  const initial: LibraryDocumentView[] = JSON.parse(JSON.stringify(documents));
  return (
    <div className="space-y-6">
      <section className="space-y-2">
        <h1 className="text-3xl font-semibold tracking-tight">{t("title")}</h1>
        <p className="max-w-2xl text-muted">{t("intro")}</p>
        <SearchNotice />
      </section>
      <LibraryManager initial={initial} isAdmin={caller.role === "admin"} />
    </div>
  );
}
