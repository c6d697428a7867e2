"use client";

import { useCallback, useEffect, useRef, useState } from "react";
import {
  type EventOf,
  type ResearchEvent,
  type ResearchEventType,
  terminalEventTypes,
} from "@/lib/research/events";
import { describeEvent } from "./describe-event";
import type { RunViewJson, TimelineEntry } from "./types";

/** A stored event as the SSE endpoint sends it: the event plus its sequence number and time. */
type StreamedEvent = ResearchEvent & { seq: number; at: string };
/** Report deltas are not stored: no seq, only the text. */
type StreamedDelta = Omit<EventOf<"report.delta">, "type">;

/** The events the dashboard listens to (EventSource only delivers named events it subscribed to). */
const subscribedEventTypes: ResearchEventType[] = [
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
  "directive.aged_out",
  "researcher.search",
  "researcher.fetch",
  "researcher.fetch_refused",
  "researcher.complete",
  "source.added",
  "supervision.first_round_decomposition",
  "supervision.assessment",
  "supervision.heuristic_sufficient",
  "supervision.round_completed",
  "report.completed",
  "knowledge.extracted",
];

/**
 * The live run: the view (re-read from the API after each event that can change it), the timeline
 * of stored events, and the report text streamed so far.
 */
export function useRunStream(initial: RunViewJson) {
  const [run, setRun] = useState(initial);
  const [timeline, setTimeline] = useState<TimelineEntry[]>([]);
  const [liveReport, setLiveReport] = useState("");
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
      if (e.type === "report.delta") {
        const delta = JSON.parse(e.data) as StreamedDelta;
        setLiveReport((t) => t + String(delta.text ?? ""));
        return;
      }
      const data = JSON.parse(e.data) as StreamedEvent;
      setTimeline((t) =>
        t.some((x) => x.seq === data.seq)
          ? t
          : [...t, { seq: Number(data.seq), type: e.type, text: describeEvent(data) }],
      );
      if (!e.type.startsWith("researcher.") || e.type === "researcher.complete") void refresh();
      if (terminalEventTypes.has(e.type as ResearchEventType)) es.close();
    };
    for (const t of subscribedEventTypes) es.addEventListener(t, onEvent);
    return () => es.close();
  }, [initial.id, refresh]);

  // A run waiting for a slot writes no events until it starts; its place in the queue still moves.
  const waiting = run.queuePosition !== null;
  useEffect(() => {
    if (!waiting) return;
    const timer = setInterval(() => void refresh(), 5000);
    return () => clearInterval(timer);
  }, [waiting, refresh]);

  return { run, timeline, liveReport, refresh };
}
