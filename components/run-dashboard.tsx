"use client";

import { useState } from "react";
import { terminalRunStatuses } from "@/lib/research/vocabulary";
import { BriefPanel } from "./run/brief-panel";
import { ClarificationForm } from "./run/clarification-form";
import { DirectivesPanel } from "./run/directives-panel";
import { PlanReview } from "./run/plan-review";
import { ReportPanel } from "./run/report-panel";
import { SharePanel } from "./run/share-panel";
import { SourcesPanel } from "./run/sources-panel";
import { StatusHeader } from "./run/status-header";
import { SupervisionPanel } from "./run/supervision-panel";
import { TimelinePanel } from "./run/timeline-panel";
import type { RunViewJson } from "./run/types";
import { useRunStream } from "./run/use-run-stream";

/** The run page: the live run (from the event stream) laid out panel by panel, and its actions. */
export function RunDashboard({ initial }: { initial: RunViewJson }) {
  const { run, timeline, liveReport, refresh } = useRunStream(initial);
  const [message, setMessage] = useState<string | null>(null);

  async function post(path: string, body?: unknown) {
    setMessage(null);
    const r = await fetch(`/api/runs/${initial.id}/${path}`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const json = await r.json().catch(() => ({}));
    if (!r.ok) setMessage(json?.error?.message ?? `HTTP ${r.status}`);
    await refresh();
    return r.ok;
  }

  const done = terminalRunStatuses.includes(run.status);
  const report = run.report ?? liveReport;
  return (
    <div className="space-y-8">
      <StatusHeader run={run} done={done} message={message} onCancel={() => post("cancel")} />

      {run.status === "awaiting_clarification" && (
        <ClarificationForm
          question={run.clarificationQuestion ?? ""}
          onAnswer={(a) => post("clarification", { answer: a })}
        />
      )}

      {run.status === "awaiting_plan_review" && (
        <PlanReview
          directives={run.directives.filter((d) => d.status === "pending")}
          onApprove={(edits) => post("directives", { approvePlan: true, edits })}
        />
      )}

      {run.brief && <BriefPanel brief={run.brief} />}

      <div className="grid gap-6 md:grid-cols-2">
        <DirectivesPanel
          directives={run.directives}
          done={done}
          onAdd={(topic, priority) => post("directives", { topic, priority })}
        />
        <TimelinePanel timeline={timeline} />
      </div>

      <SupervisionPanel history={run.supervisionHistory} coverage={run.coverage} />

      {report && (
        <ReportPanel
          report={report}
          partial={run.reportPartial}
          citationStats={run.citationStats}
          stored={Boolean(run.report)}
        />
      )}

      {run.report && <SharePanel runId={run.id} />}

      {run.sources.length > 0 && <SourcesPanel sources={run.sources} />}
    </div>
  );
}
