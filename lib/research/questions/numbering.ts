/**
 * The numbers a follow-up thread cites a run's sources by: a source the report cites keeps its
 * report number, every other read source gets the next free number, in the order the run found
 * them. A finished run's sources do not change, so the numbers are the same for every question of
 * the thread (and a reader's [4] in an answer is the report's [4]).
 */
import { hasSnapshot } from "../report/citations/source-list.ts";
import type { SourceRecord } from "../store.ts";

export function threadSourceNumbers(
  reportCitations: readonly { number: number; sourceId: string }[],
  runSources: readonly SourceRecord[],
): Map<number, SourceRecord> {
  const read = runSources.filter(hasSnapshot);
  const byId = new Map(read.map((s) => [s.id, s]));
  const numbered = new Map<number, SourceRecord>();
  const numberOf = new Map<string, number>();
  for (const c of reportCitations) {
    const source = byId.get(c.sourceId);
    if (!source || numberOf.has(c.sourceId) || numbered.has(c.number)) continue;
    numbered.set(c.number, source);
    numberOf.set(c.sourceId, c.number);
  }
  let next = Math.max(0, ...numbered.keys()) + 1;
  for (const source of read) {
    if (numberOf.has(source.id)) continue;
    numbered.set(next, source);
    numberOf.set(source.id, next);
    next++;
  }
  return numbered;
}
