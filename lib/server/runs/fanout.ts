/**
 * One run's live SSE viewers in this process, fed together. Each viewer keeps its own cursor (the
 * last seq it was sent); viewers at the same cursor form a group, and each group costs one read of
 * the rows after it, whose bytes are then written to every viewer of the group in one synchronous
 * loop. Rows are the source of truth, so every viewer gets every event exactly once and in order
 * whatever it joined at; in the usual case (everyone following live) there is one group, one read
 * per announcement and one loop of writes. Embedded, an announcement carries its committed rows,
 * and viewers right behind them are written those without a read (writeAnnounced).
 *
 * Why a hub rather than a loop per viewer: with a loop per viewer, each announcement cost every
 * viewer a wake-up (a timer, an abort listener, two promise hops, a lookup of the shared read)
 * before its write, and every idle viewer polled the database on its own timer. The hub's costs
 * per announcement are one read and the writes themselves. Its poll and heartbeats are one timer per
 * run; the poll reads only when nothing was read for an interval, so a run whose events keep coming
 * is not polled at all, and a missed wake-up costs at most one and a half intervals.
 *
 * @internal to lib/server/runs/: a helper of its actions, not an action; adapters do not import it.
 */
import type { Db } from "../../../db/client.ts";
import { getEvent, listEventsAfter } from "../../../db/queries/events.ts";
import { getRunProgress } from "../../../db/queries/runs.ts";
import { type RunEvent, terminalRunStatuses } from "../../../db/schema.ts";
import type { BusMessage, RunBus } from "../../jobs/bus.ts";
import { encodedRows, encodeText, formatSse, isTerminalRow } from "../sse-encoding.ts";

/** How many rows one read takes; a full page is followed by another read at once. */
const READ_PAGE = 500;
/** A run with a terminal status but no terminal event yet (written just after it) is waited for. */
const TERMINAL_EVENT_GRACE_MS = 10_000;
const HEARTBEAT = encodeText(": heartbeat\n\n");

export interface FanoutViewer {
  /** The seq of the last event this viewer was sent; the hub moves it. */
  cursor: number;
  /** Also wants the transient report.delta events. */
  deltas: boolean;
  /** When the viewer was last written to (for heartbeats). */
  lastWrite: number;
  /** Writes to the viewer's stream; must not throw (a gone viewer ignores it). */
  send(bytes: Uint8Array): void;
  /** Ends the viewer's stream: the run's terminal event was sent, or the run is gone. */
  end(): void;
  /** Ends the viewer's stream with an error (a read failed). */
  fail(error: unknown): void;
}

export interface FanoutTiming {
  /** Reads when nothing was read for this long (what a missed wake-up costs, give or take). */
  pollMs: number;
  /** A viewer written to less recently than this gets a comment line, so proxies keep it open. */
  heartbeatMs: number;
}

export class RunFanout {
  private readonly viewers = new Set<FanoutViewer>();
  private reading = false;
  /** Something may have been committed since the reads in progress started: read again after. */
  private again = false;
  /**
   * The highest seq announced while reads were out. Such an event may or may not be in what they
   * return: after them, a viewer still behind it is read for again, and nobody is when all have it.
   */
  private heardWhileReading = 0;
  private terminalSince: number | undefined;
  /** When the last round of reads started (the poll waits an interval after it). */
  private lastRead = 0;
  private readonly timer: ReturnType<typeof setInterval>;
  private readonly unsubscribe: () => void;

  constructor(
    private readonly db: Db,
    private readonly runId: string,
    bus: RunBus | undefined,
    private readonly timing: FanoutTiming,
    private readonly onIdle: () => void,
  ) {
    this.unsubscribe = bus?.subscribe(runId, (m) => this.heard(m)) ?? (() => {});
    // Half an interval, so a poll comes between one and one and a half intervals after the last read.
    this.timer = setInterval(() => this.tick(), Math.min(timing.pollMs, timing.heartbeatMs) / 2);
    this.timer.unref?.();
  }

  /** Adds a viewer; it is sent what follows its cursor at once. Returns how it leaves. */
  join(viewer: FanoutViewer): () => void {
    this.viewers.add(viewer);
    this.wake();
    return () => this.leave(viewer);
  }

  get size(): number {
    return this.viewers.size;
  }

  private leave(viewer: FanoutViewer): void {
    if (!this.viewers.delete(viewer) || this.viewers.size) return;
    clearInterval(this.timer);
    this.unsubscribe();
    this.onIdle();
  }

  private heard(m: BusMessage): void {
    if (m.kind === "delta") {
      const bytes = encodeText(
        m.questionId
          ? formatSse(null, "question.delta", { questionId: m.questionId, text: m.text })
          : formatSse(null, "report.delta", { text: m.text }),
      );
      for (const v of this.viewers) if (v.deltas) v.send(bytes);
    } else if (m.kind === "event") {
      if (this.reading) {
        this.heardWhileReading = Math.max(this.heardWhileReading, m.seq);
        return;
      }
      if (m.rows && this.writeAnnounced(m.rows)) return;
      // Only a viewer that has not been sent this seq needs a read.
      for (const v of this.viewers) {
        if (v.cursor < m.seq) {
          this.wake();
          return;
        }
      }
    }
  }

  /**
   * Embedded, an announcement carries the rows just committed: viewers right behind them (everyone
   * following live) are written those rows as read rows would be, and nobody reads them back.
   * A read would have waited its turn on PGlite's one connection among the run's own statements.
   * False, writing nothing, when a viewer is further behind: then everyone is read for as usual.
   * Only called with no read out, so a read cannot return these rows as well.
   */
  private writeAnnounced(rows: readonly RunEvent[]): boolean {
    if (!rows.length) return false;
    const first = rows[0].seq;
    const last = rows[rows.length - 1].seq;
    const next: FanoutViewer[] = [];
    for (const v of this.viewers) {
      if (v.cursor === first - 1) next.push(v);
      else if (v.cursor < last) return false;
    }
    this.lastRead = Date.now();
    const sent = next.length ? encodedRows(rows) : undefined;
    if (!sent) return true;
    for (const v of next) {
      v.send(sent.bytes);
      v.cursor = sent.lastSeq;
    }
    if (sent.terminal) this.finishAfterWrites(next);
    return true;
  }

  private tick(): void {
    const now = Date.now();
    for (const v of this.viewers) if (now - v.lastWrite >= this.timing.heartbeatMs) v.send(HEARTBEAT);
    if (now - this.lastRead >= this.timing.pollMs) this.wake();
  }

  /** Reads for every group now, or, when reads are out, once more after them. */
  private wake(): void {
    if (this.reading) {
      this.again = true;
      return;
    }
    this.reading = true;
    void this.readUntilCurrent();
  }

  private async readUntilCurrent(): Promise<void> {
    try {
      do {
        this.again = false;
        this.heardWhileReading = 0;
        this.lastRead = Date.now();
        const groups = new Map<number, FanoutViewer[]>();
        for (const v of this.viewers) {
          const group = groups.get(v.cursor);
          if (group) group.push(v);
          else groups.set(v.cursor, [v]);
        }
        await Promise.all([...groups].map(([cursor, group]) => this.readFor(cursor, group)));
        // Checked, and `reading` cleared, in the same turn: no announcement falls between.
      } while (this.viewers.size && (this.again || this.anyBehind(this.heardWhileReading)));
    } finally {
      this.reading = false;
    }
  }

  private anyBehind(seq: number): boolean {
    for (const v of this.viewers) if (v.cursor < seq) return true;
    return false;
  }

  /** One read for the viewers at `cursor`, written to each of them; never throws. */
  private async readFor(cursor: number, group: FanoutViewer[]): Promise<void> {
    try {
      const rows = await listEventsAfter(this.db, this.runId, cursor, READ_PAGE);
      const sent = encodedRows(rows);
      if (!sent) {
        if (await this.isOver(cursor)) for (const v of group) this.finish(v);
        return;
      }
      const live = group.filter((v) => this.viewers.has(v)); // some may have left while it was out
      for (const v of live) {
        v.send(sent.bytes);
        v.cursor = sent.lastSeq;
      }
      if (sent.terminal) this.finishAfterWrites(live);
      else if (rows.length === READ_PAGE) this.again = true;
    } catch (error) {
      for (const v of group) {
        this.leave(v);
        v.fail(error);
      }
    }
  }

  /**
   * Nothing follows `cursor`: is the run over for a viewer there? It is when the run is gone, or
   * when it has ended and `cursor` is its terminal event (a client that reconnected after the end).
   * The status may be written just before the terminal event, so a terminal status alone is not the
   * end: that last event is waited for a while.
   */
  private async isOver(cursor: number): Promise<boolean> {
    const run = await getRunProgress(this.db, this.runId);
    if (!run) return true;
    if (!terminalRunStatuses.includes(run.status) || run.lastEventSeq > cursor) return false;
    const last = cursor > 0 ? await getEvent(this.db, this.runId, cursor) : undefined;
    if (last && isTerminalRow(last)) return true;
    this.terminalSince ??= Date.now();
    return Date.now() - this.terminalSince > TERMINAL_EVENT_GRACE_MS;
  }

  private finish(viewer: FanoutViewer): void {
    this.leave(viewer);
    viewer.end();
  }

  /**
   * Ends viewers just sent the terminal event, once their writes are on their sockets: a write
   * reaches the socket only after this turn's promise jobs and next-tick callbacks, and closing a
   * response costs several times what a write does, so closing in the same turn would hold the
   * last viewers' terminal event behind every other viewer's close.
   */
  private finishAfterWrites(viewers: FanoutViewer[]): void {
    for (const v of viewers) this.leave(v);
    setImmediate(() => {
      for (const v of viewers) v.end();
    });
  }
}

// The hubs of this process, by database handle and run: one per run with viewers.
const hubs = new WeakMap<Db, Map<string, RunFanout>>();

/** The run's hub, created with the given bus and timing when the run has no viewers here yet. */
export function runFanout(db: Db, runId: string, bus: RunBus | undefined, timing: FanoutTiming): RunFanout {
  let byRun = hubs.get(db);
  if (!byRun) {
    byRun = new Map();
    hubs.set(db, byRun);
  }
  const runs = byRun;
  let hub = runs.get(runId);
  if (!hub) {
    hub = new RunFanout(db, runId, bus, timing, () => runs.delete(runId));
    runs.set(runId, hub);
  }
  return hub;
}
