"use client";

import { useCallback, useEffect, useRef, useState } from "react";
import {
  type EventOf,
  type ResearchEventType,
  terminalEventTypes,
  terminalRunStatuses,
} from "@/lib/research/ui";
import type { ShownError } from "../error-text";
import { type ActivityEntry, mergeEntries, type StreamedEvent, toEntry } from "./activity-model";
import { applyEvent, needsFullRead } from "./apply-event";
import { advanceCursor, afterRead, type EventCursor } from "./event-cursor";
import type { RunViewJson } from "./types";

/** Report deltas are not stored: no seq, only the text. */
type StreamedDelta = Omit<EventOf<"report.delta">, "type">;

/**
 * Every event type (EventSource only delivers named events it subscribed to). A record keyed by the
 * union, so a new event type does not compile until the dashboard listens to it.
 */
const everyEventType: Record<ResearchEventType, true> = {
  "run.created": true,
  "run.started": true,
  "run.queue_position": true,
  "run.resumed": true,
  "run.legacy_resume": true,
  "supervision.stopped_early": true,
  "run.completed": true,
  "run.failed": true,
  "run.cancelled": true,
  "phase.started": true,
  "phase.completed": true,
  "clarification.requested": true,
  "clarification.answered": true,
  "brief.created": true,
  "supervision.first_round_generate": true,
  "supervision.first_round_critique": true,
  "supervision.first_round_revise": true,
  "supervision.first_round_decomposition": true,
  "supervision.round_started": true,
  "supervision.think": true,
  "supervision.assessment": true,
  "supervision.heuristic_sufficient": true,
  "supervision.round_completed": true,
  "plan.awaiting_review": true,
  "plan.approved": true,
  "directive.created": true,
  "directive.duplicate_skipped": true,
  "directive.rejected": true,
  "directive.skipped": true,
  "directive.aged_out": true,
  "directive.started": true,
  "directive.completed": true,
  "directive.failed": true,
  "researcher.search": true,
  "researcher.search_results": true,
  "researcher.fetch": true,
  "researcher.fetch_refused": true,
  "researcher.think": true,
  "researcher.reflection_injected": true,
  "researcher.stopped": true,
  "researcher.complete": true,
  "source.added": true,
  "sources.rechecked": true,
  "compression.retry": true,
  "compression.completed": true,
  "report.started": true,
  "report.delta": true,
  "report.citations": true,
  "report.support_checked": true,
  "report.link_corrected": true,
  "report.completed": true,
  "token_limit.retry": true,
  "knowledge.extracted": true,
  "run.degraded": true,
  "model.retry": true,
  "model.failover": true,
  "usage.updated": true,
  "question.asked": true,
  "question.answered": true,
  "question.failed": true,
};
const subscribedEventTypes = Object.keys(everyEventType) as ResearchEventType[];

/** Why live updates stopped, as data: the notice puts it into words in the page's language. */
export type StreamProblem =
  | { kind: "stopped" }
  | { kind: "unreachable" }
  | { kind: "status"; status: number }
  | { kind: "refused"; error: ShownError };

/**
 * Why the server closed the stream for good (EventSource cannot tell): a second request to the same
 * address reads the answer. Null when it would be accepted now (the probe is let go at once).
 */
async function whyStreamClosed(url: string): Promise<StreamProblem | null> {
  const probe = new AbortController();
  try {
    const res = await fetch(url, { signal: probe.signal, headers: { accept: "text/event-stream" } });
    if (res.ok) return null;
    const body = (await res.json().catch(() => null)) as { error?: Partial<ShownError> } | null;
    const error = body?.error;
    return typeof error?.code === "string" && typeof error.message === "string"
      ? { kind: "refused", error: { code: error.code, message: error.message, details: error.details } }
      : { kind: "status", status: res.status };
  } catch {
    return { kind: "unreachable" };
  } finally {
    probe.abort();
  }
}

/**
 * The live run: the view (the server's at load, then each event applied to it: apply-event.ts;
 * re-read in full only after a gap in the events: event-cursor.ts), the activity
 * (every stored event, described) and the report text streamed so far. When the server refuses the
 * stream (e.g. too many open at once: EVENT_STREAMS_MAX_PER_USER), `streamProblem` says why and
 * `retryStream` tries again from the last event received.
 */
export function useRunStream(initial: RunViewJson) {
  const [run, setRun] = useState(initial);
  const [activity, setActivity] = useState<ActivityEntry[]>([]);
  const [liveReport, setLiveReport] = useState("");
  const [streamProblem, setStreamProblem] = useState<StreamProblem | null>(null);
  // Bumped to open the stream again; lastSeq is where the new one starts.
  const [attempt, setAttempt] = useState(0);
  // The last event received (where a new stream starts) and the last one in the view read.
  const cursor = useRef<EventCursor>({ last: 0, view: initial.lastEventSeq ?? 0 });
  // Events applied since the view was last read: applied again on top of a read that missed them.
  const applied = useRef<StreamedEvent[]>([]);
  const refreshing = useRef(false);
  const again = useRef(false);
  const endedAtLoad = terminalRunStatuses.includes(initial.status);

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
        if (r.ok) {
          const fresh = (await r.json()) as RunViewJson;
          cursor.current = afterRead(cursor.current, fresh.lastEventSeq ?? 0);
          // Events that arrived while the read was out are applied again on top of it.
          applied.current = applied.current.filter((e) => e.seq > (fresh.lastEventSeq ?? 0));
          setRun(applied.current.reduce(applyEvent, fresh));
        }
      } while (again.current);
    } finally {
      refreshing.current = false;
    }
  }, [initial.id]);

  // biome-ignore lint/correctness/useExhaustiveDependencies: a new `attempt` opens the stream again
  useEffect(() => {
    const url = `/api/runs/${initial.id}/events?deltas=1&after=${cursor.current.last}`;
    const es = new EventSource(url);
    let ended = false;
    // Events arrive in bursts (a replay sends the whole history at once): batch them per frame.
    let pending: ActivityEntry[] = [];
    let frame: ReturnType<typeof setTimeout> | null = null;
    const flush = () => {
      frame = null;
      const batch = pending;
      pending = [];
      setActivity((list) => mergeEntries(list, batch));
    };
    const onEvent = (e: MessageEvent) => {
      if (e.type === "report.delta") {
        const delta = JSON.parse(e.data) as StreamedDelta;
        setLiveReport((t) => t + String(delta.text ?? ""));
        return;
      }
      const event = { ...JSON.parse(e.data), type: e.type } as StreamedEvent;
      const seq = /^\d+$/.test(e.lastEventId) ? Number(e.lastEventId) : Number(event.seq);
      // A hole in the sequence (events lost between two connections): the view is read again.
      const { cursor: next, fresh, gap } = advanceCursor(cursor.current, seq);
      cursor.current = next;
      event.seq = seq;
      pending.push(toEntry(event));
      frame ??= setTimeout(flush, 50);
      const type = e.type as ResearchEventType;
      // Events already in the view (the history replayed at load) only fill the activity.
      if (fresh) {
        applied.current.push(event);
        // A read replaces everything older than the last few hundred events.
        if (applied.current.length > 500) applied.current.splice(0, applied.current.length - 500);
        setRun((view) => applyEvent(view, event));
      }
      // A run that had ended when the page was rendered changes no more: its replay needs no read.
      if (!endedAtLoad && ((fresh && needsFullRead(event)) || gap)) void refresh();
      if (terminalEventTypes.has(type)) {
        ended = true;
        es.close();
      }
    };
    for (const t of subscribedEventTypes) es.addEventListener(t, onEvent);
    // EventSource reconnects by itself with Last-Event-ID, and the server replays what was missed
    // from there: a reconnect reads nothing unless the events it replays skip ahead (a gap, above).
    es.addEventListener("open", () => setStreamProblem(null));
    // A dropped connection is reconnected by EventSource itself; a refusal (an answer other than
    // 200) closes it for good, and the page says why and offers to try again.
    es.addEventListener("error", () => {
      if (ended || es.readyState !== EventSource.CLOSED) return;
      void whyStreamClosed(url).then((why) => {
        if (ended) return;
        setStreamProblem(why ?? { kind: "stopped" });
      });
    });
    return () => {
      ended = true;
      es.close();
      if (frame) clearTimeout(frame);
    };
  }, [initial.id, refresh, endedAtLoad, attempt]);

  // The new stream starts after the last event received: its replay brings what was missed.
  const retryStream = useCallback(() => {
    setStreamProblem(null);
    setAttempt((n) => n + 1);
  }, []);

  return { run, activity, liveReport, refresh, streamProblem, retryStream };
}
