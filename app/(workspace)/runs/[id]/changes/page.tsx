import type { Metadata } from "next";
import { notFound } from "next/navigation";
import { getTranslations } from "next-intl/server";
import { cache } from "react";
import { z } from "zod";
import { absoluteTime } from "@/components/home/time-format";
import { markdownTree } from "@/components/markdown";
import { ownerReportCitations } from "@/components/report/citation-data";
import { type ReportTranslator, reportNames } from "@/components/report/verdict";
import { ChangesView } from "@/components/versions/changes-view";
import { remarkChangeMarks } from "@/components/versions/remark-change-marks";
import { AppError } from "@/lib/errors";
import { pageOwner } from "@/lib/server/owner";
import { diffRuns } from "@/lib/server/runs/diff";
import { listRunVersions } from "@/lib/server/runs/versions";
import { findRunView } from "@/lib/server/runs/view";
import { serverRuntime } from "@/lib/server/runtime";

export const dynamic = "force-dynamic";

const uuid = z.uuid();
const first = (v: string | string[] | undefined) => (Array.isArray(v) ? v[0] : v);

/** The two runs (another account's or a malformed id: not found) and their diff, or why there is none. */
const load = cache(async (id: string, against: string | undefined) => {
  if (!uuid.safeParse(id).success || !against || !uuid.safeParse(against).success) return null;
  const rt = await serverRuntime();
  const owner = await pageOwner();
  const [after, before] = [await findRunView(rt, id, owner), await findRunView(rt, against, owner)];
  if (!after || !before) return null;
  const versions = await listRunVersions(rt, id, owner);
  try {
    return { after, before, versions, diff: await diffRuns(rt, id, against, owner), problem: null };
  } catch (e) {
    if (e instanceof AppError && e.code === "conflict")
      return { after, before, versions, diff: null, problem: e.message };
    throw e;
  }
});

export async function generateMetadata({
  params,
  searchParams,
}: PageProps<"/runs/[id]/changes">): Promise<Metadata> {
  const found = await load((await params).id, first((await searchParams).against));
  const t = await getTranslations("versions");
  const report = await getTranslations("report");
  return {
    title: found ? t("pageTitle", { question: found.after.question }) : report("runNotFound"),
  };
}

export default async function ChangesPage({ params, searchParams }: PageProps<"/runs/[id]/changes">) {
  const found = await load((await params).id, first((await searchParams).against));
  if (!found) notFound();
  const t = await getTranslations("versions");
  const names = reportNames((await getTranslations("report")) as ReportTranslator);
  const { after, before, versions, diff } = found;
  const numberOf = (id: string) => versions.findIndex((v) => v.id === id) + 1;
  const name = (id: string) => (numberOf(id) > 0 ? String(numberOf(id)) : t("otherRun"));
  const marked =
    diff && after.report
      ? markdownTree({
          children: after.report,
          citations: ownerReportCitations(after),
          question: after.question,
          partial: after.reportPartial,
          names,
          remarkPlugins: [
            [
              remarkChangeMarks,
              {
                claims: [
                  ...diff.claims.changed.map((c) => ({ text: c.after.text, kind: "changed" as const })),
                  ...diff.claims.added.map((c) => ({ text: c.text, kind: "added" as const })),
                ],
                labels: { changed: t("changedMark"), added: t("addedMark") },
              },
            ],
          ],
        })
      : null;
  return (
    <div className="space-y-8">
      <header className="space-y-2">
        <h1 className="text-3xl font-semibold tracking-tight">{t("title")}</h1>
        <p className="text-lg">{after.question}</p>
        <p className="text-muted">
          {t("between", {
            before: name(before.id),
            beforeDate: absoluteTime(new Date(before.createdAt)),
            after: name(after.id),
            afterDate: absoluteTime(new Date(after.createdAt)),
          })}
        </p>
        <p>
          <a href={`/runs/${after.id}`} className="text-blue-700 underline dark:text-blue-400">
            {t("back", { n: name(after.id) })}
          </a>
        </p>
      </header>
      {diff ? (
        <>
          <p role="status" className="font-medium">
            {diff.differ
              ? t("differ", {
                  count: diff.claims.changed.length + diff.claims.added.length + diff.claims.removed.length,
                  sources: diff.sources.changed.length,
                })
              : t("same")}
          </p>
          <ChangesView diff={diff} />
          <section className="space-y-3">
            <h2 className="text-xl font-semibold">{t("reportTitle", { n: name(after.id) })}</h2>
            <p className="text-sm text-muted">{t("legend")}</p>
            <div className="[&_[data-change=added]]:bg-green-100 [&_[data-change=changed]]:bg-amber-100 dark:[&_[data-change=added]]:bg-green-900/40 dark:[&_[data-change=changed]]:bg-amber-900/40 [&_[data-change]]:rounded [&_[data-change]]:px-1">
              {marked}
            </div>
          </section>
        </>
      ) : (
        <p role="status">{t("noReport", { message: found.problem ?? "" })}</p>
      )}
    </div>
  );
}
