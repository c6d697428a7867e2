import type { Metadata } from "next";
import Link from "next/link";
import { getLocale, getTranslations } from "next-intl/server";
import { ModelsSettings } from "@/components/admin/settings-models";
import { ProvidersSettings } from "@/components/admin/settings-providers";
import { RunSettings, SearchSettings } from "@/components/admin/settings-search-runs";
import { absoluteTime, timeWords } from "@/components/home/time-format";
import { pageAdmin } from "@/lib/server/auth/page";
import { serverRuntime } from "@/lib/server/runtime";
import { settingsView } from "@/lib/server/settings/view";

export const dynamic = "force-dynamic";

export async function generateMetadata(): Promise<Metadata> {
  return { title: (await getTranslations("admin.settings"))("metaTitle") };
}

export default async function AdminSettingsPage() {
  await pageAdmin();
  const [view, t, locale, formatWords] = await Promise.all([
    serverRuntime().then((rt) => settingsView(rt)),
    getTranslations("admin.settings"),
    getLocale(),
    getTranslations("format"),
  ]);
  const words = timeWords(formatWords as Parameters<typeof timeWords>[0]);
  return (
    <div className="space-y-8">
      <section className="space-y-2">
        <p className="text-sm">
          <Link href="/admin" className="underline">
            {t("breadcrumbAdmin")}
          </Link>{" "}
          / {t("title")}
        </p>
        <h1 className="text-3xl font-semibold tracking-tight">{t("title")}</h1>
        <p className="max-w-2xl text-muted">{t("intro")}</p>
        {view.problems.length > 0 && (
          <ul role="alert" className="list-disc pl-5 text-sm text-red-700 dark:text-red-400">
            {view.problems.map((p) => (
              <li key={p}>{p}</li>
            ))}
          </ul>
        )}
      </section>
      <ModelsSettings view={view} />
      <ProvidersSettings view={view} />
      <SearchSettings view={view} />
      <RunSettings view={view} />
      <section aria-labelledby="settings-changes" className="space-y-2">
        <h2 id="settings-changes" className="text-lg font-medium">
          {t("changes")}
        </h2>
        {view.changes.length === 0 ? (
          <p className="text-sm text-muted">{t("noChanges")}</p>
        ) : (
          <ul className="space-y-1 text-sm" data-testid="settings-changes">
            {view.changes.map((c) => (
              <li key={c.id}>
                <time dateTime={c.at}>{absoluteTime(new Date(c.at), locale, words)}</time> · {c.by}:{" "}
                {c.summary}
              </li>
            ))}
          </ul>
        )}
      </section>
    </div>
  );
}
