import type { Metadata } from "next";
import Link from "next/link";
import { getTranslations } from "next-intl/server";
import {
  ActiveRunsTable,
  CostPanel,
  FailuresTable,
  ModelErrorsTable,
} from "@/components/admin/system-panels";
import { pageAdmin } from "@/lib/server/auth/page";
import { systemOverview } from "@/lib/server/operations/system";
import { serverRuntime } from "@/lib/server/runtime";

export const dynamic = "force-dynamic";

export async function generateMetadata(): Promise<Metadata> {
  return { title: (await getTranslations("admin.system"))("metaTitle") };
}

/** Admins only; to anyone else the page does not exist. */
export default async function SystemPage() {
  await pageAdmin();
  const [overview, t] = await Promise.all([
    serverRuntime().then((rt) => systemOverview(rt)),
    getTranslations("admin.system"),
  ]);
  const sections = [
    { id: "system-runs", title: t("runsTitle"), body: <ActiveRunsTable runs={overview.runs} /> },
    {
      id: "system-failures",
      title: t("failuresTitle"),
      body: <FailuresTable failures={overview.failures} />,
    },
    {
      id: "system-models",
      title: t("modelsTitle"),
      body: (
        <>
          <p className="max-w-2xl text-sm text-muted">{t("modelsIntro")}</p>
          <ModelErrorsTable models={overview.models} />
        </>
      ),
    },
    { id: "system-cost", title: t("costTitle"), body: <CostPanel overview={overview} /> },
  ];
  return (
    <div className="space-y-10">
      <section className="space-y-2">
        <h1 className="text-3xl font-semibold tracking-tight">{t("title")}</h1>
        <p className="max-w-2xl text-muted">
          {t("intro")}{" "}
          <Link href="/admin" className="underline">
            {t("back")}
          </Link>
        </p>
      </section>
      {sections.map((s) => (
        <section key={s.id} aria-labelledby={s.id} className="space-y-3">
          <h2 id={s.id} className="text-lg font-medium">
            {s.title}
          </h2>
          {s.body}
        </section>
      ))}
    </div>
  );
}
