import type { Metadata } from "next";
import { notFound } from "next/navigation";
import { getTranslations } from "next-intl/server";
import { cache } from "react";
import { z } from "zod";
import { PageMessages } from "@/components/page-messages";
import { QuestionThread } from "@/components/questions/question-thread";
import { runTitle } from "@/components/run/activity-labels";
import { DeeperForm } from "@/components/run/deeper-form";
import { LineageNav } from "@/components/run/lineage-nav";
import { RefreshForm } from "@/components/run/refresh-form";
import { StoredReport } from "@/components/run/stored-report";
import { RunDashboard } from "@/components/run-dashboard";
import { ScheduleForm } from "@/components/schedules/schedule-form";
import { VersionSwitcher } from "@/components/versions/version-switcher";
import { pageOwner } from "@/lib/server/owner";
import { listQuestions } from "@/lib/server/questions/list-questions";
import { listRunVersions } from "@/lib/server/runs/versions";
import { findRunView } from "@/lib/server/runs/view";
import { serverRuntime } from "@/lib/server/runtime";
import { getRunSchedule } from "@/lib/server/schedules/schedule";

export const dynamic = "force-dynamic";

// Once per request: the metadata and the page read the same run (a long report is costly to load).
const loadRun = cache(async (id: string) => {
  if (!z.uuid().safeParse(id).success) return null;
  return findRunView(await serverRuntime(), id, await pageOwner());
});

export async function generateMetadata({ params }: PageProps<"/runs/[id]">): Promise<Metadata> {
  const found = await loadRun((await params).id);
  const t = await getTranslations();
  return { title: found ? runTitle(found.question, t) : t("run.notFound") };
}

export default async function RunPage({ params }: PageProps<"/runs/[id]">) {
  const found = await loadRun((await params).id);
  if (!found) notFound();
  // A stored report does not change: rendered here, the browser does not re-parse its Markdown, and
  // the view leaves the Markdown out (the page would carry it twice; Copy fetches it).
  const storedReport = found.report ? <StoredReport run={{ ...found, report: found.report }} /> : undefined;
  const view = JSON.parse(JSON.stringify({ ...found, report: null, citations: pageCitations(found) }));
  // Questions are about a stored report (finished or partial): the thread as it stands now.
  // Under a stored report: research it deeper, or ask about it.
  const afterReport = found.report ? (
    <div className="space-y-4">
      {["completed", "failed", "cancelled"].includes(found.status) && <RefreshForm runId={found.id} />}
      <DeeperForm runId={found.id} />
      <ScheduleForm
        runId={found.id}
        schedule={JSON.parse(
          JSON.stringify(await getRunSchedule(await serverRuntime(), await pageOwner(), found.id)),
        )}
      />
      <QuestionThread
        runId={found.id}
        initial={await listQuestions(await serverRuntime(), found.id, await pageOwner())}
        sources={view.sources}
      />
    </div>
  ) : undefined;
  const versions = await listRunVersions(await serverRuntime(), found.id, await pageOwner());
  return (
    <PageMessages part="run">
      <div className="space-y-4">
        <LineageNav parent={found.parent} followUps={found.children} />
        {versions.length > 1 && <VersionSwitcher versions={versions} currentId={found.id} />}
        <RunDashboard initial={view} storedReport={storedReport} afterReport={afterReport} />
      </div>
    </PageMessages>
  );
}

/**
 * The citations the page's data carries. With the report stored, its markers carry their verdicts
 * and a card loads its claims with the source's passages: the page needs only each number's source
 * and verdicts (the Sources tab), once per distinct triple, not every claim's sentence again.
 */
function pageCitations(run: NonNullable<Awaited<ReturnType<typeof loadRun>>>) {
  if (!run.report) return run.citations;
  const seen = new Set<string>();
  return run.citations.flatMap((c) => {
    const key = `${c.number} ${c.sourceId} ${c.support}`;
    if (seen.has(key)) return [];
    seen.add(key);
    return [{ ...c, sentence: "", reason: null }];
  });
}
