import type { Metadata } from "next";
import Link from "next/link";
import { ModelsSettings } from "@/components/admin/settings-models";
import { ProvidersSettings } from "@/components/admin/settings-providers";
import { RunSettings, SearchSettings } from "@/components/admin/settings-search-runs";
import { pageAdmin } from "@/lib/server/auth/page";
import { serverRuntime } from "@/lib/server/runtime";
import { settingsView } from "@/lib/server/settings/view";

export const dynamic = "force-dynamic";

export const metadata: Metadata = { title: "Settings · Admin · Deep Research" };

export default async function AdminSettingsPage() {
  await pageAdmin();
  const view = await settingsView(await serverRuntime());
  return (
    <div className="space-y-8">
      <section className="space-y-2">
        <p className="text-sm">
          <Link href="/admin" className="underline">
            Admin
          </Link>{" "}
          / Settings
        </p>
        <h1 className="text-3xl font-semibold tracking-tight">Settings</h1>
        <p className="max-w-2xl text-muted">
          Models, provider keys, search and run limits. Each area uses the environment variables unless you
          choose to set it here. Keys are stored encrypted and never shown again, only their last four
          characters. Changes apply to runs started afterwards.
        </p>
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
          Changes
        </h2>
        {view.changes.length === 0 ? (
          <p className="text-sm text-muted">No changes yet.</p>
        ) : (
          <ul className="space-y-1 text-sm" data-testid="settings-changes">
            {view.changes.map((c) => (
              <li key={c.id}>
                <time dateTime={c.at}>{new Date(c.at).toISOString().replace("T", " ").slice(0, 16)} UTC</time>{" "}
                · {c.by}: {c.summary}
              </li>
            ))}
          </ul>
        )}
      </section>
    </div>
  );
}
