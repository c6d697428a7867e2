import type { TimelineEntry } from "./types";

/** The run's stored events as they arrive, one readable line each. */
export function TimelinePanel({ timeline }: { timeline: TimelineEntry[] }) {
  return (
    <section aria-label="Progress" className="space-y-2">
      <h2 className="font-medium">Progress</h2>
      <ol data-testid="timeline" className="max-h-96 space-y-1 overflow-y-auto text-xs text-muted">
        {timeline.map((e) => (
          <li key={e.seq}>
            <span className="mr-1 text-zinc-400">#{e.seq}</span>
            {e.text}
          </li>
        ))}
      </ol>
    </section>
  );
}
