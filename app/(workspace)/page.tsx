import { getTranslations } from "next-intl/server";
import { z } from "zod";
import { ImportBundleForm } from "@/components/exports/import-bundle-form";
import { startFromSettings } from "@/components/home/form-start";
import { RecentRuns } from "@/components/home/recent-runs";
import { NewRunForm } from "@/components/new-run-form";
import { PageMessages } from "@/components/page-messages";
import { SetupStatus } from "@/components/setup-status";
import { checkHealth } from "@/lib/server/operations/health";
import { pageOwner } from "@/lib/server/owner";
import { runFormOptions } from "@/lib/server/runs/form";
import { findRunView, listRunSummaries } from "@/lib/server/runs/view";
import { serverRuntime } from "@/lib/server/runtime";
import { serverEffectiveEnv } from "@/lib/server/settings/effective";

export const dynamic = "force-dynamic";

export default async function HomePage({ searchParams }: PageProps<"/">) {
  const t = await getTranslations("home");
  const params = await searchParams;
  const first = (v: string | string[] | undefined) => (Array.isArray(v) ? v[0] : v);
  const query = first(params.q)?.trim().slice(0, 200) ?? "";
  const health = await checkHealth();
  const options = runFormOptions(health.database.ok ? await serverEffectiveEnv() : process.env);
  // "Edit question" on a run's page comes back here with that run (its question, preset and options).
  const fromId = first(params.from);
  const from =
    health.database.ok && fromId && z.uuid().safeParse(fromId).success
      ? await findRunView(await serverRuntime(), fromId, await pageOwner())
      : null;
  const question = from?.question ?? first(params.question)?.slice(0, 4000) ?? "";
  const recent = health.database.ok
    ? await listRunSummaries(await serverRuntime(), await pageOwner(), 20, { query })
    : [];
  return (
    <PageMessages part="home">
      <div className="space-y-8">
        <section className="space-y-3">
          <h1 className="text-3xl font-semibold tracking-tight">{t("title")}</h1>
          <p className="max-w-2xl text-muted">{t("intro")}</p>
          <SetupStatus health={health} searchProblem={options.searchProblem} />
          <NewRunForm
            disabled={!health.models.configured || !health.database.ok}
            options={options}
            initialQuestion={question}
            start={from ? startFromSettings(from.settings, options) : undefined}
          />
        </section>
        <section className="grid gap-6 text-sm sm:grid-cols-2" data-testid="home-guide">
          <GuideList
            title={t("examplesTitle")}
            items={[t("examples.compare"), t("examples.evidence"), t("examples.field")]}
          />
          <GuideList title={t("getTitle")} items={[t("get.report"), t("get.checked"), t("get.time")]} />
        </section>
        <RecentRuns runs={recent} query={query} />
        {health.database.ok && <ImportBundleForm />}
      </div>
    </PageMessages>
  );
}

/** One column of the home page's guide: what to ask, what you get. */
function GuideList({ title, items }: { title: string; items: string[] }) {
  return (
    <div className="space-y-2">
      <h2 className="font-medium">{title}</h2>
      <ul className="list-disc space-y-1 pl-5 text-muted">
        {items.map((item) => (
          <li key={item}>{item}</li>
        ))}
      </ul>
    </div>
  );
}
