/**
 * The directives a round starts together are marked running in one write and announced in one
 * block of `directive.started` events: a round's researchers start in the same turn of the event
 * loop, and one write each would sit between the supervisor's decision and the first researcher's
 * model call. Each directive waits until its own start is
 * stored and announced before its researcher begins, or, when the engine writes them behind the
 * next model call (writes-behind.ts), until they are queued: the researcher's first store call
 * then comes after them.
 */
import { emitAll } from "../../events.ts";
import type { WriteParts } from "../../writes-behind.ts";

export interface DirectiveStarts {
  /** Resolves once `directiveId` is stored as running and its `directive.started` written (or both are deferred). */
  start(directiveId: string): Promise<void>;
}

export function createDirectiveStarts(deps: WriteParts): DirectiveStarts {
  let open: { ids: string[]; written: Promise<void> } | undefined;
  const write = async (ids: readonly string[]) => {
    await deps.store.markDirectivesRunning(ids);
    await emitAll(
      deps.events,
      ids.map((directiveId) => ({ type: "directive.started", directiveId }) as const),
    );
  };
  return {
    start(directiveId) {
      if (!open) {
        const ids: string[] = [];
        // Starts requested in this turn (and the microtasks after it) join the same write.
        const written = new Promise<void>((resolve) => setImmediate(resolve)).then(() => {
          open = undefined;
          return write(ids);
        });
        open = { ids, written };
      }
      open.ids.push(directiveId);
      return open.written;
    },
  };
}

/** One batcher per researcher context (the supervision phase's), created on first use. */
const byContext = new WeakMap<object, DirectiveStarts>();

export function directiveStartsFor(context: object, deps: WriteParts): DirectiveStarts {
  let starts = byContext.get(context);
  if (!starts) {
    starts = createDirectiveStarts(deps);
    byContext.set(context, starts);
  }
  return starts;
}
