/**
 * The arithmetic of the scale figures (fan-out, concurrent runs, scale-out), kept pure so it is
 * unit-tested: whether a viewer's seqs are gapless, whether every viewer got the same events,
 * delivery delays, makespans and throughput.
 */

/** One event as a viewer received it: its seq, its commit time (`at`) and when it arrived. */
export interface Delivery {
  seq: number;
  type: string;
  /** The event row's `at` (ms since the epoch). */
  at: number;
  /** When the viewer had the whole block (ms since the epoch). */
  receivedAt: number;
}

/** Seqs must run 1, 2, 3 … with no gap and no repeat (a stream replays from the start). */
export function gaplessProblem(seqs: readonly number[]): string | undefined {
  for (let i = 0; i < seqs.length; i++) {
    if (seqs[i] !== i + 1) return `expected seq ${i + 1} at position ${i}, got ${seqs[i]}`;
  }
  return seqs.length ? undefined : "no events";
}

/** The first viewer whose seqs differ from the first viewer's, described; undefined when all agree. */
export function mismatchedViewer(viewers: readonly (readonly number[])[]): string | undefined {
  const [first, ...rest] = viewers;
  if (!first) return undefined;
  const key = first.join(",");
  const i = rest.findIndex((v) => v.join(",") !== key);
  return i < 0 ? undefined : `viewer ${i + 1} got ${rest[i].length} events, viewer 0 got ${first.length}`;
}

/** Commit-to-delivery delays (ms) of the events committed at or after `since`. */
export function deliveryDelays(deliveries: readonly Delivery[], since = 0): number[] {
  return deliveries.filter((d) => d.at >= since).map((d) => d.receivedAt - d.at);
}

/** One event across all viewers: the delay to its first and to its last viewer (ms). */
export interface EventSpread {
  seq: number;
  type: string;
  first: number;
  last: number;
}

/**
 * The events committed at or after `since` whose last viewer waited longest, slowest first: where a
 * many-viewer p95 comes from (it rests on a few events), and whether the wait was before the first
 * viewer (the commit, the read) or between the first and the last (the writes to every viewer).
 */
export function slowestEvents(
  viewers: readonly (readonly Delivery[])[],
  since = 0,
  count = 3,
): EventSpread[] {
  const bySeq = new Map<number, EventSpread>();
  for (const deliveries of viewers) {
    for (const d of deliveries) {
      if (d.at < since) continue;
      const delay = d.receivedAt - d.at;
      const e = bySeq.get(d.seq);
      if (!e) bySeq.set(d.seq, { seq: d.seq, type: d.type, first: delay, last: delay });
      else {
        e.first = Math.min(e.first, delay);
        e.last = Math.max(e.last, delay);
      }
    }
  }
  return [...bySeq.values()].sort((a, b) => b.last - a.last || a.seq - b.seq).slice(0, count);
}

/** From the first start to the last end (ms). */
export function makespan(starts: readonly number[], ends: readonly number[]): number {
  if (!starts.length || !ends.length) return Number.NaN;
  return Math.max(...ends) - Math.min(...starts);
}

/** Runs finished per second over a makespan in ms. */
export function throughput(runs: number, makespanMs: number): number {
  return makespanMs > 0 ? runs / (makespanMs / 1000) : Number.NaN;
}
