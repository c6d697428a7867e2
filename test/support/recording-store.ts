// Test-only: engine tests record events in memory instead of the worker's sink. The run's end is
// written by the store (finishRun), not emitted, so this adds the terminal event to the same list
// once the store has written it, as the worker's sink announces it after COMMIT.
import type { ResearchEvent } from "../../lib/research/events.ts";
import type { RunStore } from "../../lib/research/store.ts";

export function recordingEnd(store: RunStore, events: ResearchEvent[]): RunStore {
  return {
    ...store,
    async finishRun(event) {
      const ended = await store.finishRun(event);
      if (ended) events.push(event);
      return ended;
    },
  };
}
