/** Dates and durations as the recent-runs list shows them: relative in words, absolute in UTC. */

const units: [Intl.RelativeTimeFormatUnit, number][] = [
  ["year", 365 * 24 * 3600],
  ["month", 30 * 24 * 3600],
  ["week", 7 * 24 * 3600],
  ["day", 24 * 3600],
  ["hour", 3600],
  ["minute", 60],
];

/** "3 minutes ago", "yesterday", "just now". */
export function relativeTime(date: Date, now: Date = new Date()): string {
  const seconds = Math.round((date.getTime() - now.getTime()) / 1000);
  const rtf = new Intl.RelativeTimeFormat("en", { numeric: "auto" });
  for (const [unit, size] of units) {
    if (Math.abs(seconds) >= size) return rtf.format(Math.trunc(seconds / size), unit);
  }
  return "just now";
}

/** "25 Nov 2026, 08:04 UTC": the server cannot know the reader's time zone before hydration. */
export function absoluteTime(date: Date): string {
  const text = new Intl.DateTimeFormat("en-GB", {
    dateStyle: "medium",
    timeStyle: "short",
    timeZone: "UTC",
  }).format(date);
  return `${text} UTC`;
}

/** "45 s", "12 min", "1 h 5 min". */
export function formatDuration(ms: number): string {
  const seconds = Math.max(0, Math.round(ms / 1000));
  if (seconds < 60) return `${seconds} s`;
  const minutes = Math.round(seconds / 60);
  if (minutes < 60) return `${minutes} min`;
  const hours = Math.floor(minutes / 60);
  const rest = minutes % 60;
  return rest ? `${hours} h ${rest} min` : `${hours} h`;
}

/** How long the run took, or has been running; null before it started. */
export function runDuration(
  run: { startedAt: Date | null; finishedAt: Date | null },
  now: Date = new Date(),
): { text: string; ongoing: boolean } | null {
  if (!run.startedAt) return null;
  const end = run.finishedAt ?? now;
  return { text: formatDuration(end.getTime() - run.startedAt.getTime()), ongoing: !run.finishedAt };
}
