/**
 * Pure arithmetic over the fixture servers' call logs (no I/O, unit-tested): how long at least one
 * call was in flight (the union of [at, endedAt] intervals within the run's window), and the
 * longest dependency chain of the calls a run had to make one after another.
 *
 * The chain, for a research run:
 * - serial calls (brief, plan, critique, revision, each round's think and assessment, synthesis,
 *   citation checks, knowledge) happen one after another, so each adds its duration; serial calls
 *   that overlap in time (if the app ever runs two at once) count once, with the longest of them;
 * - researchers of one round run side by side: each researcher's calls (its model calls, its
 *   searches and fetches, its compression) depend on each other, so a researcher's chain is the
 *   time its own calls were in flight (their union: the sum when they are strictly sequential), and
 *   the round adds the slowest researcher's chain;
 * - anything not attributed (another rule, an unknown web path) is busy time but not on the chain.
 * chain = Σ serial groups + Σ over rounds of max(researcher chain). The critical path is the calls
 * behind that sum in time order; the gaps between consecutive ones are where the app's own work
 * (event and checkpoint writes, parsing, waiting for a worker) sits.
 */

export interface Interval {
  at: number;
  endedAt: number;
}

/** One logged call, classified: "serial", a researcher lane ("r1:d3", with its round), or "other". */
export interface TimedCall extends Interval {
  label: string;
  lane: string;
  round?: number;
}

export interface Gap {
  ms: number;
  after: string;
  before: string;
  /** Offset of the gap's start from the window's start (ms). */
  offset: number;
}

export interface ChainResult {
  chainMs: number;
  serialMs: number;
  /** Per round: the slowest researcher's lane and its chain. */
  rounds: { round: number; lane: string; chainMs: number; researchers: number }[];
  /** The calls behind chainMs, in time order. */
  path: TimedCall[];
}

const duration = (i: Interval) => Math.max(0, i.endedAt - i.at);

/** Total time covered by at least one interval, each clipped to [start, end]. */
export function unionLength(intervals: readonly Interval[], start = -Infinity, end = Infinity): number {
  const clipped = intervals
    .map((i) => ({ at: Math.max(i.at, start), endedAt: Math.min(i.endedAt, end) }))
    .filter((i) => i.endedAt > i.at)
    .sort((a, b) => a.at - b.at);
  let total = 0;
  let curStart = Number.NaN;
  let curEnd = Number.NaN;
  for (const i of clipped) {
    if (Number.isNaN(curEnd) || i.at > curEnd) {
      if (!Number.isNaN(curEnd)) total += curEnd - curStart;
      curStart = i.at;
      curEnd = i.endedAt;
    } else curEnd = Math.max(curEnd, i.endedAt);
  }
  if (!Number.isNaN(curEnd)) total += curEnd - curStart;
  return total;
}

/** Serial calls grouped where they overlap in time; each group is represented by its longest call. */
function serialGroups(calls: readonly TimedCall[]): TimedCall[] {
  const sorted = [...calls].sort((a, b) => a.at - b.at);
  const picked: TimedCall[] = [];
  let groupEnd = -Infinity;
  for (const c of sorted) {
    const last = picked[picked.length - 1];
    if (last && c.at < groupEnd) {
      if (duration(c) > duration(last)) picked[picked.length - 1] = c;
      groupEnd = Math.max(groupEnd, c.endedAt);
    } else {
      picked.push(c);
      groupEnd = c.endedAt;
    }
  }
  return picked;
}

export function criticalPath(calls: readonly TimedCall[]): ChainResult {
  const serial = serialGroups(calls.filter((c) => c.lane === "serial"));
  const serialMs = serial.reduce((n, c) => n + duration(c), 0);
  const lanes = new Map<string, TimedCall[]>();
  for (const c of calls) {
    if (c.lane === "serial" || c.lane === "other" || c.round === undefined) continue;
    lanes.set(c.lane, [...(lanes.get(c.lane) ?? []), c]);
  }
  const byRound = new Map<number, { lane: string; chainMs: number; researchers: number }>();
  for (const [lane, own] of lanes) {
    const round = own[0].round as number;
    const chainMs = unionLength(own);
    const best = byRound.get(round);
    const researchers = (best?.researchers ?? 0) + 1;
    if (!best || chainMs > best.chainMs) byRound.set(round, { lane, chainMs, researchers });
    else best.researchers = researchers;
  }
  const rounds = [...byRound.entries()]
    .map(([round, r]) => ({ round, ...r }))
    .sort((a, b) => a.round - b.round);
  const path = [...serial, ...rounds.flatMap((r) => lanes.get(r.lane) ?? [])].sort((a, b) => a.at - b.at);
  return { chainMs: serialMs + rounds.reduce((n, r) => n + r.chainMs, 0), serialMs, rounds, path };
}

/** Idle stretches on the path: window start → first call, between consecutive calls, last call → end. */
export function pathGaps(path: readonly TimedCall[], start: number, end: number): Gap[] {
  const gaps: Gap[] = [];
  let prevEnd = start;
  let prevLabel = "POST";
  for (const c of path) {
    if (c.at > prevEnd)
      gaps.push({ ms: c.at - prevEnd, after: prevLabel, before: c.label, offset: prevEnd - start });
    if (c.endedAt > prevEnd) {
      prevEnd = c.endedAt;
      prevLabel = c.label;
    }
  }
  if (end > prevEnd)
    gaps.push({ ms: end - prevEnd, after: prevLabel, before: "terminal event", offset: prevEnd - start });
  return gaps;
}

/** The role of a call label ("researcher r0:d1" → "researcher"). */
const roleOf = (label: string) => label.split(" ")[0];

/**
 * Gaps summed by kind of step ("compression → supervisor-think": the end of a round), largest
 * total first: which transitions the app's own work slows down, whichever researcher was slowest.
 */
export function gapsByTransition(
  gaps: readonly Gap[],
): { transition: string; count: number; totalMs: number }[] {
  const sums = new Map<string, { count: number; totalMs: number }>();
  for (const g of gaps) {
    const key = `${roleOf(g.after)} → ${roleOf(g.before)}`;
    const s = sums.get(key) ?? { count: 0, totalMs: 0 };
    s.count++;
    s.totalMs += g.ms;
    sums.set(key, s);
  }
  return [...sums.entries()]
    .map(([transition, s]) => ({ transition, ...s }))
    .sort((a, b) => b.totalMs - a.totalMs);
}
