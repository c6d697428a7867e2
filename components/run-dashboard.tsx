"use client";

import { terminalRunStatuses } from "@/lib/research/vocabulary";
import { BriefPanel } from "./run/brief-panel";
import { ClarificationForm } from "./run/clarification-form";
import { DirectivesPanel } from "./run/directives-panel";
import { PlanReview } from "./run/plan-review";
import { ReportPanel } from "./run/report-panel";
import { RunControls } from "./run/run-controls";
import { SourcesPanel } from "./run/sources-panel";
import { StatusHeader } from "./run/status-header";
import { SteerForm } from "./run/steer-form";
import { SupervisionPanel } from "./run/supervision-panel";
import { TimelinePanel } from "./run/timeline-panel";
import type { RunViewJson } from "./run/types";
import { useRunStream } from "./run/use-run-stream";

/**
 * The run page: the live run (from the event stream) laid out panel by panel. Each panel that acts
 * on the run takes the run and `onChanged` (re-read the run after an action).
 */
export function RunDashboard({ initial }: { initial: RunViewJson }) {
  const { run, timeline, liveReport, refresh } = useRunStream(initial);
  const onChanged = () => void refresh();
  const done = terminalRunStatuses.includes(run.status);
  return (
    <div className="space-y-8">
      <StatusHeader run={run}>
        <RunControls run={run} onChanged={onChanged} />
      </StatusHeader>

      {run.status === "awaiting_clarification" && <ClarificationForm run={run} onChanged={onChanged} />}
      {run.status === "awaiting_plan_review" && <PlanReview run={run} onChanged={onChanged} />}

      {run.brief && <BriefPanel brief={run.brief} />}

      <div className="grid gap-6 md:grid-cols-2">
        <div className="space-y-3">
          <DirectivesPanel directives={run.directives} />
          {!done && <SteerForm run={run} onChanged={onChanged} />}
        </div>
        <TimelinePanel timeline={timeline} />
      </div>

      <SupervisionPanel history={run.supervisionHistory} coverage={run.coverage} />

      <ReportPanel run={run} liveReport={liveReport} />
      <SourcesPanel run={run} />
    </div>
  );
}
