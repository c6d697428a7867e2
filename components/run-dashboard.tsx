"use client";

import { useTranslations } from "next-intl";
import type { ReactNode } from "react";
import { terminalRunStatuses } from "@/lib/research/ui";
import { BriefPanel } from "./run/brief-panel";
import { ClarificationForm } from "./run/clarification-form";
import { DegradationNotice } from "./run/degradation-notice";
import { DirectivesPanel } from "./run/directives-panel";
import { ModelNotice } from "./run/model-notice";
import { PlanReview } from "./run/plan-review";
import { ProgressCard } from "./run/progress/progress-card";
import { ResearchDetails } from "./run/progress/research-details";
import { ReportPanel } from "./run/report-panel";
import { RunControls } from "./run/run-controls";
import { RunTabs } from "./run/run-tabs";
import { SourcesPanel } from "./run/sources-panel";
import { StatusHeader } from "./run/status-header";
import { SteerForm } from "./run/steer-form";
import { StreamNotice } from "./run/stream-notice";
import { SupervisionPanel } from "./run/supervision-panel";
import { TimelinePanel } from "./run/timeline-panel";
import type { RunViewJson } from "./run/types";
import { UsagePanel } from "./run/usage-panel";
import { useRunStream } from "./run/use-run-stream";

/**
 * The run page, built around the question and the report. While the run goes: the status header,
 * the progress card (or, in its place, whatever waits on the person), steering and the draft, with
 * the brief, activity, directives, supervision and usage collapsed under "How this was researched".
 * Once it has ended: the report first, then Activity, Sources, Supervision and Usage as tabs.
 * Panels that act on the run take the run and `onChanged` (re-read the run after an action).
 * `storedReport`: the report the run had stored when the page was rendered, already rendered by the server.
 */
export function RunDashboard({
  initial,
  storedReport,
  afterReport,
}: {
  initial: RunViewJson;
  storedReport?: ReactNode;
  /** Under a finished report: "Ask about this report" (components/questions). */
  afterReport?: ReactNode;
}) {
  const t = useTranslations("run.tabs");
  const { run, activity, liveReport, refresh, streamProblem, retryStream } = useRunStream(initial);
  const onChanged = () => void refresh();
  const done = terminalRunStatuses.includes(run.status);
  const header = (
    <StatusHeader run={run}>
      <RunControls run={run} onChanged={onChanged} />
    </StatusHeader>
  );
  const notice = <DegradationNotice key="degradations" degradations={run.degradations} />;

  // One list of keyed panels for both layouts: the report keeps its component (and the reader's
  // place in it) when the finished layout moves it to the top.
  const report = <ReportPanel key="report" run={run} liveReport={liveReport} storedReport={storedReport} />;
  const panels = done
    ? [
        notice,
        report,
        afterReport ? <div key="questions">{afterReport}</div> : null,
        <RunTabs
          key="tabs"
          label={t("label")}
          tabs={[
            {
              id: "activity",
              label: t("activity"),
              content: (
                <div className="space-y-8">
                  <DirectivesPanel run={run} activity={activity} />
                  <TimelinePanel activity={activity} directives={run.directives} />
                </div>
              ),
            },
            {
              id: "sources",
              label: t("sources", { count: run.sources.length }),
              content: <SourcesPanel run={run} />,
            },
            {
              id: "supervision",
              label: t("supervision"),
              content: (
                <div className="space-y-4">
                  {run.brief && <BriefPanel brief={run.brief} />}
                  <SupervisionPanel run={run} />
                </div>
              ),
            },
            { id: "usage", label: t("usage"), content: <UsagePanel run={run} /> },
          ]}
        />,
      ]
    : [
        // What waits on the person takes the card's place, under its stepper and stopped clock.
        <ProgressCard key="progress" run={run} activity={activity}>
          {run.status === "awaiting_clarification" && <ClarificationForm run={run} onChanged={onChanged} />}
          {run.status === "awaiting_plan_review" && <PlanReview run={run} onChanged={onChanged} />}
        </ProgressCard>,
        notice,
        <SteerForm key="steer" run={run} onChanged={onChanged} />,
        report,
        <ResearchDetails key="details">
          {run.brief && <BriefPanel brief={run.brief} />}
          <DirectivesPanel run={run} activity={activity} />
          <TimelinePanel activity={activity} directives={run.directives} />
          <SupervisionPanel run={run} />
          <UsagePanel run={run} />
        </ResearchDetails>,
      ];
  return (
    <div className="space-y-8">
      {header}
      <ModelNotice activity={activity} />
      {streamProblem && <StreamNotice problem={streamProblem} onRetry={retryStream} />}
      {panels}
    </div>
  );
}
