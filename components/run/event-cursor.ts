/**
 * Where the run page stands in the run's events. Stored events have gapless ids (seq), and the
 * stream replays from the last id it delivered (Last-Event-ID), so an id that skips ahead means
 * events were lost between two connections: the one case, besides the first load, where the page
 * reads the whole run again.
 */
export interface EventCursor {
  /** The last event id received (0: none yet). */
  last: number;
  /** Events up to this one are in the view the page was rendered with (or last read). */
  view: number;
}

export interface EventStep {
  cursor: EventCursor;
  /** Newer than the view: applied to it (older ones are the history replayed, for the activity only). */
  fresh: boolean;
  /** Events before this one were missed: the view is read again, once. */
  gap: boolean;
}

/** The cursor after an event with id `seq`. */
export function advanceCursor(cursor: EventCursor, seq: number): EventStep {
  // Missed events the view already holds (the history replayed at load) need no read.
  const gap = cursor.last > 0 && seq > cursor.last + 1 && seq - 1 > cursor.view;
  return {
    cursor: { ...cursor, last: Math.max(cursor.last, seq) },
    fresh: seq > cursor.view,
    gap,
  };
}

/** The cursor after a read of the whole run that includes events up to `seq`. */
export function afterRead(cursor: EventCursor, seq: number): EventCursor {
  return { ...cursor, view: Math.max(cursor.view, seq) };
}
