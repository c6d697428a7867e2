"use client";

import { useCallback, useEffect, useRef, useState } from "react";
import { Markdown } from "./markdown";

interface Directive {
  id: string;
  round: number;
  topic: string;
  priority: string;
  origin: string;
  status: string;
}
interface SourceRow {
  id: string;
  url: string;
  title: string;
  domain: string;
  quality: string;
}
export interface RunViewJson {
  id: string;
  question: string;
  status: string;
  phase: string | null;
  brief: string | null;
  directives: Directive[];
  sources: SourceRow[];
  supervisionHistory: {
    round: number;
    method: string;
    decision: string | null;
    reason: string | null;
    newSources: number;
    directivesExecuted: number;
  }[];
  coverage: CoverageJson | null;
  report: string | null;
  reportPartial: boolean;
  citationStats: {
    kept?: number;
    supported?: number;
    unsupported?: number;
    unchecked?: number;
    removedUnknown?: number;
  } | null;
  error: string | null;
  clarificationQuestion?: string | null;
  usage: { total?: { inputTokens?: number; outputTokens?: number; costUsd?: number } } | null;
}
interface CoverageJson {
  totalSources?: number;
  heuristic?: { confidence: number; sufficient: boolean };
  directives?: {
    directiveId: string;
    topic: string;
    sourceCount: number;
    uniqueDomains: number;
    quality: Record<string, number>;
  }[];
}
interface TimelineEvent {
  seq: number;
  type: string;
  text: string;
}

const terminal = new Set(["completed", "failed", "cancelled"]);

/** One line a human can read for each event type (the raw payload is in the API). */
function describeEvent(type: string, d: Record<string, unknown>): string {
  switch (type) {
    case "phase.started":
      return `Phase ${d.phase} started`;
    case "brief.created":
      return "Research brief written";
    case "directive.created":
      return `Directive (${d.origin}, ${d.priority}): ${String(d.topic).slice(0, 140)}`;
    case "researcher.search":
      return `Search: ${d.query}`;
    case "researcher.fetch":
      return `${d.ok ? "Read" : "Could not read"} ${d.url}${d.reason ? ` (${d.reason})` : ""}`;
    case "source.added":
      return `Source: ${d.title || d.url} [${d.quality}]`;
    case "supervision.assessment":
      return `Coverage ${Math.round(Number(d.overallCoverage) * 100)}% (${d.method}) — ${d.shouldContinue ? "continuing" : "enough"}`;
    case "supervision.round_completed":
      return `Round ${d.round}: ${d.decision} — ${d.reason}`;
    case "run.failed":
      return `Failed: ${d.reason}`;
    case "run.completed":
      return `Completed with ${d.sources} sources and ${d.citations} citations`;
    default:
      return type;
  }
}

export function RunDashboard({ initial }: { initial: RunViewJson }) {
  const [run, setRun] = useState(initial);
  const [timeline, setTimeline] = useState<TimelineEvent[]>([]);
  const [liveReport, setLiveReport] = useState("");
  const [message, setMessage] = useState<string | null>(null);
  const refreshing = useRef(false);
  const again = useRef(false);

  // One refresh at a time; a request during one schedules exactly one more, so the last state wins.
  const refresh = useCallback(async () => {
    if (refreshing.current) {
      again.current = true;
      return;
    }
    refreshing.current = true;
    try {
      do {
        again.current = false;
        const r = await fetch(`/api/runs/${initial.id}`);
        if (r.ok) setRun(await r.json());
      } while (again.current);
    } finally {
      refreshing.current = false;
    }
  }, [initial.id]);

  useEffect(() => {
    const es = new EventSource(`/api/runs/${initial.id}/events?deltas=1`);
    const onEvent = (e: MessageEvent) => {
      const data = JSON.parse(e.data) as Record<string, unknown>;
      if (e.type === "report.delta") {
        setLiveReport((t) => t + String(data.text ?? ""));
        return;
      }
      setTimeline((t) =>
        t.some((x) => x.seq === data.seq)
          ? t
          : [...t, { seq: Number(data.seq), type: e.type, text: describeEvent(e.type, data) }],
      );
      if (!e.type.startsWith("researcher.") || e.type === "researcher.complete") void refresh();
      if (/^run\.(completed|failed|cancelled)$/.test(e.type)) es.close();
    };
    const types = [
      "report.delta",
      "run.created",
      "run.started",
      "run.resumed",
      "run.completed",
      "run.failed",
      "run.cancelled",
      "phase.started",
      "phase.completed",
      "brief.created",
      "clarification.requested",
      "clarification.answered",
      "plan.awaiting_review",
      "plan.approved",
      "directive.created",
      "directive.started",
      "directive.completed",
      "directive.failed",
      "researcher.search",
      "researcher.fetch",
      "researcher.complete",
      "source.added",
      "supervision.first_round_decomposition",
      "supervision.assessment",
      "supervision.round_completed",
      "report.completed",
      "knowledge.extracted",
    ];
    for (const t of types) es.addEventListener(t, onEvent);
    return () => es.close();
  }, [initial.id, refresh]);

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

  const done = terminal.has(run.status);
  const report = run.report ?? liveReport;
  return (
    <div className="space-y-8">
      <header className="space-y-2">
        <p className="text-sm text-zinc-500">
          <a href="/" className="hover:underline">
            ← all runs
          </a>
        </p>
        <h1 className="text-2xl font-semibold tracking-tight">{run.question}</h1>
        <p className="flex flex-wrap items-center gap-3 text-sm">
          <span data-testid="run-status" className="rounded bg-zinc-100 px-2 py-0.5 dark:bg-zinc-800">
            {run.status}
          </span>
          {run.phase && <span className="text-zinc-500">phase: {run.phase}</span>}
          <span className="text-zinc-500">
            {run.sources.length} sources · {run.directives.length} directives
          </span>
          {!done && (
            <button
              type="button"
              onClick={() => post("cancel")}
              className="rounded border border-red-300 px-2 py-0.5 text-red-700 hover:bg-red-50 dark:border-red-800 dark:text-red-400"
            >
              Cancel
            </button>
          )}
          {run.report && (
            <a href={`/api/runs/${run.id}/report.md`} className="text-blue-700 underline dark:text-blue-400">
              Download Markdown
            </a>
          )}
        </p>
        {run.error && (
          <p role="alert" className="text-sm text-red-700 dark:text-red-400">
            {run.error}
          </p>
        )}
        {message && (
          <p role="alert" className="text-sm text-amber-700 dark:text-amber-400">
            {message}
          </p>
        )}
      </header>

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

      {run.brief && (
        <section
          aria-label="Research brief"
          className="rounded-lg border border-zinc-200 p-4 text-sm dark:border-zinc-800"
        >
          <h2 className="mb-1 font-medium">Brief</h2>
          <p className="whitespace-pre-wrap text-zinc-700 dark:text-zinc-300">{run.brief}</p>
        </section>
      )}

      <div className="grid gap-6 md:grid-cols-2">
        <section aria-label="Directives" className="space-y-2">
          <h2 className="font-medium">Directives</h2>
          <ul className="space-y-2 text-sm">
            {run.directives.map((d) => (
              <li key={d.id} className="rounded border border-zinc-200 p-2 dark:border-zinc-800">
                <span className="mr-2 rounded bg-zinc-100 px-1 text-xs dark:bg-zinc-800">
                  r{d.round} · {d.priority} · {d.origin} · {d.status}
                </span>
                {d.topic}
              </li>
            ))}
          </ul>
          {!done && <SteerForm onAdd={(topic, priority) => post("directives", { topic, priority })} />}
        </section>
        <section aria-label="Progress" className="space-y-2">
          <h2 className="font-medium">Progress</h2>
          <ol
            data-testid="timeline"
            className="max-h-96 space-y-1 overflow-y-auto text-xs text-zinc-600 dark:text-zinc-400"
          >
            {timeline.map((e) => (
              <li key={e.seq}>
                <span className="mr-1 text-zinc-400">#{e.seq}</span>
                {e.text}
              </li>
            ))}
          </ol>
        </section>
      </div>

      <SupervisionPanel history={run.supervisionHistory} coverage={run.coverage} />

      {report && (
        <section
          aria-label="Report"
          className="rounded-lg border border-zinc-200 bg-white p-6 dark:border-zinc-800 dark:bg-zinc-900"
        >
          {run.reportPartial && <p className="mb-4 text-sm text-amber-700">This report is partial.</p>}
          {run.citationStats && run.report && (
            <p data-testid="citation-check" className="mb-4 text-xs text-zinc-500">
              Citations checked against the stored text of their sources: {run.citationStats.supported ?? 0}{" "}
              supported · {run.citationStats.unsupported ?? 0} unsupported ·{" "}
              {run.citationStats.unchecked ?? 0} unchecked
              {run.citationStats.removedUnknown
                ? ` · ${run.citationStats.removedUnknown} citation(s) to unknown sources removed`
                : ""}
            </p>
          )}
          <Markdown>{report}</Markdown>
        </section>
      )}

      {run.sources.length > 0 && (
        <section aria-label="Sources" className="space-y-2">
          <h2 className="font-medium">Sources gathered</h2>
          <ul className="space-y-1 text-sm">
            {run.sources.map((s) => (
              <li key={s.id}>
                <span className="mr-2 rounded bg-zinc-100 px-1 text-xs dark:bg-zinc-800">{s.quality}</span>
                <a
                  href={s.url}
                  target="_blank"
                  rel="noopener noreferrer nofollow"
                  className="hover:underline"
                >
                  {s.title || s.url}
                </a>{" "}
                <span className="text-zinc-500">{s.domain}</span>
              </li>
            ))}
          </ul>
        </section>
      )}
    </div>
  );
}

function SteerForm({ onAdd }: { onAdd: (topic: string, priority: string) => Promise<boolean> }) {
  const [topic, setTopic] = useState("");
  const [priority, setPriority] = useState("normal");
  return (
    <form
      aria-label="Add a directive"
      className="flex gap-2 text-sm"
      onSubmit={async (e) => {
        e.preventDefault();
        if (await onAdd(topic, priority)) setTopic("");
      }}
    >
      <input
        value={topic}
        onChange={(e) => setTopic(e.target.value)}
        placeholder="Steer: research this too…"
        className="flex-1 rounded border border-zinc-300 px-2 py-1 dark:border-zinc-700 dark:bg-zinc-900"
      />
      <select
        value={priority}
        onChange={(e) => setPriority(e.target.value)}
        className="rounded border border-zinc-300 px-1 dark:border-zinc-700 dark:bg-zinc-900"
      >
        <option value="critical">critical</option>
        <option value="normal">normal</option>
        <option value="low">low</option>
      </select>
      <button
        type="submit"
        disabled={topic.trim().length < 5}
        className="rounded bg-zinc-900 px-3 text-white disabled:opacity-40 dark:bg-zinc-100 dark:text-zinc-900"
      >
        Add
      </button>
    </form>
  );
}

function ClarificationForm({
  question,
  onAnswer,
}: {
  question: string;
  onAnswer: (a: string) => Promise<boolean>;
}) {
  const [answer, setAnswer] = useState("");
  return (
    <form
      aria-label="Answer the clarifying question"
      className="space-y-2 rounded-lg border border-amber-300 bg-amber-50 p-4 text-sm dark:border-amber-800 dark:bg-amber-950"
      onSubmit={async (e) => {
        e.preventDefault();
        await onAnswer(answer);
      }}
    >
      <p className="font-medium">{question}</p>
      <textarea
        value={answer}
        onChange={(e) => setAnswer(e.target.value)}
        rows={2}
        className="w-full rounded border p-2 dark:bg-zinc-900"
      />
      <button
        type="submit"
        disabled={!answer.trim()}
        className="rounded bg-zinc-900 px-3 py-1 text-white disabled:opacity-40"
      >
        Answer and continue
      </button>
    </form>
  );
}

/** Plan review: the supervisor's proposed directives, each can be dropped or re-prioritised before research starts. */
function PlanReview({
  directives,
  onApprove,
}: {
  directives: Directive[];
  onApprove: (edits: { id: string; drop?: boolean; priority?: string }[]) => Promise<boolean>;
}) {
  const [dropped, setDropped] = useState<Set<string>>(new Set());
  const [priorities, setPriorities] = useState<Record<string, string>>({});
  return (
    <section
      aria-label="Plan review"
      className="space-y-3 rounded-lg border border-blue-300 bg-blue-50 p-4 text-sm dark:border-blue-800 dark:bg-blue-950"
    >
      <h2 className="font-medium">Review the research plan</h2>
      <p>
        The supervisor proposes these directives. Drop or re-prioritise any, then approve to start the
        research.
      </p>
      <ul className="space-y-2">
        {directives.map((d) => (
          <li key={d.id} className="flex items-start gap-3">
            <label className="flex items-center gap-1 whitespace-nowrap">
              <input
                type="checkbox"
                checked={dropped.has(d.id)}
                onChange={(e) => {
                  const next = new Set(dropped);
                  if (e.target.checked) next.add(d.id);
                  else next.delete(d.id);
                  setDropped(next);
                }}
              />
              drop
            </label>
            <select
              aria-label={`Priority of: ${d.topic.slice(0, 60)}`}
              value={priorities[d.id] ?? d.priority}
              onChange={(e) => setPriorities({ ...priorities, [d.id]: e.target.value })}
              className="rounded border border-zinc-300 px-1 dark:border-zinc-700 dark:bg-zinc-900"
            >
              {["critical", "high", "normal", "low"].map((p) => (
                <option key={p} value={p}>
                  {p}
                </option>
              ))}
            </select>
            <span className={dropped.has(d.id) ? "line-through opacity-60" : ""}>{d.topic}</span>
          </li>
        ))}
      </ul>
      <button
        type="button"
        onClick={() =>
          onApprove(
            directives
              .map((d) => ({
                id: d.id,
                ...(dropped.has(d.id) ? { drop: true } : {}),
                ...(priorities[d.id] && priorities[d.id] !== d.priority
                  ? { priority: priorities[d.id] }
                  : {}),
              }))
              .filter((e) => Object.keys(e).length > 1),
          )
        }
        className="rounded bg-zinc-900 px-3 py-1 font-medium text-white dark:bg-zinc-100 dark:text-zinc-900"
      >
        Approve plan and start research
      </button>
    </section>
  );
}

/** What the supervisor decided each round and how well each directive is covered (the steering view). */
function SupervisionPanel({
  history,
  coverage,
}: {
  history: RunViewJson["supervisionHistory"];
  coverage: CoverageJson | null;
}) {
  if (!history.length && !coverage?.directives?.length) return null;
  return (
    <section aria-label="Supervision" className="space-y-3 text-sm">
      <h2 className="font-medium">Supervision</h2>
      {coverage?.directives?.length ? (
        <table className="w-full border-collapse text-left text-xs">
          <caption className="mb-1 text-left text-zinc-500">
            Coverage
            {coverage.heuristic
              ? ` — heuristic confidence ${Math.round(coverage.heuristic.confidence * 100)}%${coverage.heuristic.sufficient ? " (sufficient)" : ""}`
              : ""}
          </caption>
          <thead>
            <tr className="border-b border-zinc-200 dark:border-zinc-800">
              <th className="py-1 pr-2">Directive</th>
              <th className="py-1 pr-2">Sources</th>
              <th className="py-1 pr-2">Domains</th>
              <th className="py-1">Quality (H/M/L/?)</th>
            </tr>
          </thead>
          <tbody>
            {coverage.directives.map((d) => (
              <tr key={d.directiveId} className="border-b border-zinc-100 dark:border-zinc-900">
                <td className="py-1 pr-2">{d.topic.slice(0, 90)}</td>
                <td className="py-1 pr-2">{d.sourceCount}</td>
                <td className="py-1 pr-2">{d.uniqueDomains}</td>
                <td className="py-1">
                  {d.quality.HIGH ?? 0}/{d.quality.MEDIUM ?? 0}/{d.quality.LOW ?? 0}/{d.quality.UNKNOWN ?? 0}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      ) : null}
      <ol className="space-y-1 text-xs text-zinc-600 dark:text-zinc-400">
        {history.map((r) => (
          <li key={r.round}>
            Round {r.round} ({r.method}): {r.directivesExecuted} directives, {r.newSources} new sources
            {r.decision ? ` — ${r.decision}: ${r.reason ?? ""}` : ""}
          </li>
        ))}
      </ol>
    </section>
  );
}
