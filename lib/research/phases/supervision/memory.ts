/**
 * The supervisor's memory across rounds: its own gap analyses, its own assessments and delegation
 * decisions (which directives it created, which proposals were refused), and each directive's
 * compressed findings, in the order they happened. It is rebuilt from the store every round (thoughts live in
 * the rounds' `think`, findings in researcher results), so a resumed run sees exactly what the
 * original worker saw. Findings are given as clearly labelled user messages rather than tool
 * results: Anthropic rejects tool_result blocks unless tools are declared, and the structured
 * assessment call declares none.
 */
import type { ModelMessage } from "ai";
import { dataBlock } from "../../prompts/data-blocks.ts";
import type {
  DirectiveRecord,
  ResearcherResultRecord,
  RunStore,
  SupervisionRoundRecord,
} from "../../store.ts";
import { renderDecision } from "./memory-decisions.ts";

export const CHARS_PER_TOKEN = 4;
/** No single findings entry may take more than this share of the budget, so several stay visible. */
export const MAX_ENTRY_SHARE = 0.34;

export type MemoryEntry =
  | { kind: "thought"; round: number; text: string }
  /** The round's assessment (round 0: the decomposition) and what it delegated, rendered as text. */
  | { kind: "decision"; round: number; text: string }
  | {
      kind: "findings";
      round: number;
      directiveId: string;
      ordinal: number;
      topic: string;
      text: string;
      failed: boolean;
    };

export function renderEntry(entry: MemoryEntry): string {
  if (entry.kind === "thought") return `Round ${entry.round}: my gap analysis\n\n${entry.text}`;
  if (entry.kind === "decision") return `Round ${entry.round}: my assessment and delegation\n\n${entry.text}`;
  const head = `Researcher report for directive #${entry.ordinal} (round ${entry.round}): ${entry.topic}`;
  if (entry.failed) return `${head}\n\nThe researcher failed and returned no findings: ${entry.text}`;
  return `${head}\n\n${dataBlock("research_findings", entry.text)}`;
}

export function entryChars(entry: MemoryEntry): number {
  return renderEntry(entry).length;
}

function cutText(text: string, maxChars: number): string {
  if (text.length <= maxChars) return text;
  const marker = "\n[… truncated to fit the supervisor's memory budget]";
  return text.slice(0, Math.max(0, maxChars - marker.length)) + marker;
}

function capEntry(entry: MemoryEntry, maxChars: number): MemoryEntry {
  const overhead = entryChars(entry) - entry.text.length;
  if (entryChars(entry) <= maxChars) return entry;
  return { ...entry, text: cutText(entry.text, Math.max(0, maxChars - overhead)) };
}

/**
 * Fits the memory under `budgetTokens` (≈4 chars a token): the oldest entries are dropped first,
 * the latest thought is always kept (cut to the budget if it alone exceeds it), and no findings
 * entry takes more than MAX_ENTRY_SHARE of the budget.
 */
export function truncateMemory(
  entries: readonly MemoryEntry[],
  budgetTokens: number,
): { entries: MemoryEntry[]; dropped: number } {
  const budget = Math.max(0, Math.floor(budgetTokens * CHARS_PER_TOKEN));
  let latestThought = -1;
  for (let i = entries.length - 1; i >= 0; i--) {
    if (entries[i].kind === "thought") {
      latestThought = i;
      break;
    }
  }
  const capped = entries.map((e, i) =>
    i === latestThought ? capEntry(e, budget) : capEntry(e, Math.floor(budget * MAX_ENTRY_SHARE)),
  );
  let used = latestThought >= 0 ? entryChars(capped[latestThought]) : 0;
  const keep = new Set<number>(latestThought >= 0 ? [latestThought] : []);
  for (let i = capped.length - 1; i >= 0; i--) {
    if (i === latestThought) continue;
    const size = entryChars(capped[i]);
    // Strictly oldest-first: once something does not fit, everything older goes too.
    if (used + size > budget) break;
    used += size;
    keep.add(i);
  }
  const kept = capped.filter((_, i) => keep.has(i));
  return { entries: kept, dropped: entries.length - kept.length };
}

/** The memory as conversation turns: thoughts and decisions as the supervisor's own, findings as labelled data. */
export function memoryMessages(entries: readonly MemoryEntry[]): ModelMessage[] {
  return entries.map(
    (e): ModelMessage =>
      e.kind === "findings"
        ? { role: "user", content: renderEntry(e) }
        : { role: "assistant", content: renderEntry(e) },
  );
}

function decisionEntry(
  record: SupervisionRoundRecord | undefined,
  directives: readonly DirectiveRecord[],
): MemoryEntry | undefined {
  if (!record?.assessment) return undefined;
  const delegated = directives.filter((d) => d.round === record.round && d.origin === "supervisor");
  const text = renderDecision(record, delegated);
  return text ? { kind: "decision", round: record.round, text } : undefined;
}

/**
 * Rebuilds the memory from what the run stored: per round, its thought, its assessment and
 * delegation decisions, then its directives' findings.
 */
export async function loadMemoryEntries(store: RunStore): Promise<MemoryEntry[]> {
  const [rounds, directives, results] = await Promise.all([
    store.listRounds(),
    store.listDirectives(),
    store.listResearcherResults(),
  ]);
  return memoryEntriesOf({ rounds, directives, results });
}

/** The memory from the rows loadMemoryEntries reads, when the caller has them in hand. */
export function memoryEntriesOf(rows: {
  rounds: readonly SupervisionRoundRecord[];
  directives: readonly DirectiveRecord[];
  results: readonly ResearcherResultRecord[];
}): MemoryEntry[] {
  const { rounds, directives, results } = rows;
  const findings = new Map(results.map((r) => [r.directiveId, r.compressedFindings ?? r.rawNotes ?? ""]));
  const roundNumbers = [...new Set([...rounds.map((r) => r.round), ...directives.map((d) => d.round)])].sort(
    (a, b) => a - b,
  );
  const entries: MemoryEntry[] = [];
  for (const round of roundNumbers) {
    const record = rounds.find((r) => r.round === round);
    const think = record?.think;
    if (think?.trim()) entries.push({ kind: "thought", round, text: think.trim() });
    const decision = decisionEntry(record, directives);
    if (decision) entries.push(decision);
    for (const d of directives) {
      if (d.round !== round) continue;
      const base = {
        kind: "findings" as const,
        round,
        directiveId: d.id,
        ordinal: d.ordinal,
        topic: d.topic,
      };
      if (d.status === "done") {
        entries.push({
          ...base,
          text: findings.get(d.id)?.trim() || "(no findings recorded)",
          failed: false,
        });
      } else if (d.status === "failed") {
        entries.push({ ...base, text: d.error ?? "unknown error", failed: true });
      }
    }
  }
  return entries;
}
