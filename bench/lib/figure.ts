/**
 * One benchmark figure: a measured value with its target. Every figure is measured in the same run
 * as whatever it is compared with (ratios), so the machine's speed cancels out where it can.
 */
export interface Figure {
  /** Stable id, e.g. "orchestration-overhead". */
  id: string;
  /** What it is, in words. */
  name: string;
  value: number;
  unit: string;
  /** The target in words, e.g. "≤ 1.05"; empty for figures that are only printed. */
  target: string;
  /** Whether the target is met; null for printed-only figures. */
  pass: boolean | null;
  /** Anything that explains the value (inputs, parts of a ratio, percentiles). */
  details?: Record<string, unknown>;
}

export function atMost(value: number, limit: number): { target: string; pass: boolean } {
  return { target: `≤ ${limit}`, pass: value <= limit };
}

export function atLeast(value: number, limit: number): { target: string; pass: boolean } {
  return { target: `≥ ${limit}`, pass: value >= limit };
}

export function percentile(values: readonly number[], p: number): number {
  if (!values.length) return Number.NaN;
  const sorted = [...values].sort((a, b) => a - b);
  const index = Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1));
  return sorted[index];
}

export const median = (values: readonly number[]) => percentile(values, 50);

/** The table `npm run bench` prints: figure, value, target, pass/fail. */
export function formatTable(figures: readonly Figure[]): string {
  const rows = figures.map((f) => [
    f.name,
    `${round(f.value)} ${f.unit}`.trim(),
    f.target || "—",
    f.pass === null ? "info" : f.pass ? "pass" : "FAIL",
  ]);
  const head = ["figure", "value", "target", "result"];
  const widths = head.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i].length)));
  const line = (cells: string[]) => cells.map((c, i) => c.padEnd(widths[i])).join("  ");
  return [line(head), line(widths.map((w) => "-".repeat(w))), ...rows.map(line)].join("\n");
}

function round(n: number): string {
  if (!Number.isFinite(n)) return String(n);
  return Math.abs(n) >= 100 ? n.toFixed(0) : Math.abs(n) >= 10 ? n.toFixed(1) : n.toFixed(3);
}

/** What every benchmark module gets. */
export interface BenchContext {
  /** PostgreSQL server URL (BENCH_DATABASE_URL); unset: embedded only. */
  postgresUrl?: string;
  /** `--quick`: smaller counts, for checking a benchmark works (its figures are not the real ones). */
  quick: boolean;
  log(message: string): void;
}

/**
 * A benchmark module: a file in bench/figures/ exporting `benchmark`. `npm run bench` finds them
 * all (or those named with `--only`) and runs them one after another, never in parallel.
 */
export interface Benchmark {
  id: string;
  /** Runs the benchmark; returns its figures (a failure to measure is thrown, not a figure). */
  run(ctx: BenchContext): Promise<Figure[]>;
}
