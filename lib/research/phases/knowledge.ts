/**
 * KNOWLEDGE: after the report, extract the items worth keeping across runs (findings, lessons,
 * domain notes) and store them as `provisional` for people to review. A by-product: any failure is
 * recorded as `knowledge.extracted` with failed: true and the run goes on; only cancellation throws.
 */
import { z } from "zod";
import { recordDegradation } from "../degradations.ts";
import type { EngineDeps } from "../deps.ts";
import { throwIfAborted } from "../errors.ts";
import { boundedText, share, wholeNumber } from "../model-output.ts";
import {
  knowledgeInstructions,
  knowledgePrompt,
  MAX_KNOWLEDGE_CONTENT,
  MAX_KNOWLEDGE_ITEMS,
} from "../prompts/knowledge.ts";
import { indexSourcesByUrl, urlKey } from "../report/citations/source-list.ts";
import { sourcesSectionAt } from "../report/parts.ts";
import { withTokenRecovery } from "../report/token-recovery.ts";
import type { KnowledgeItemInput, SourceRecord } from "../store.ts";
import { knowledgeCategories } from "../vocabulary.ts";
import {
  contradicted,
  evidenceConfidence,
  isScaffolding,
  type VerdictsBySource,
  verdictsBySource,
  withoutScaffolding,
} from "./knowledge-evidence.ts";

export const knowledgeItemSchema = z.object({
  category: z.enum(knowledgeCategories),
  content: boundedText(MAX_KNOWLEDGE_CONTENT),
  sources: z.array(wholeNumber()),
  confidence: share(),
  needs_review: z.boolean(),
});

export const knowledgeSchema = z.object({
  // Items without content are dropped, and only the first MAX_KNOWLEDGE_ITEMS are kept.
  items: z
    .array(knowledgeItemSchema)
    .transform((items) => items.filter((i) => i.content).slice(0, MAX_KNOWLEDGE_ITEMS)),
});

export type ExtractedKnowledge = z.infer<typeof knowledgeSchema>;

/** Reports are long; this much of the body is plenty to extract from and keeps the call cheap. */
const MAX_REPORT_CHARS = 60_000;

/**
 * The report body and its numbered sources: read from the report's own `## Sources` section (so
 * the [N] in the text and the list agree), else the given sources numbered in order.
 */
export function numberedReportSources(
  report: string,
  sources: readonly SourceRecord[],
): { body: string; numbered: Map<number, SourceRecord> } {
  const numbered = new Map<number, SourceRecord>();
  const at = sourcesSectionAt(report);
  if (at < 0) {
    sources.forEach((s, i) => {
      numbered.set(i + 1, s);
    });
    return { body: report.trim(), numbered };
  }
  const byUrl = indexSourcesByUrl(sources);
  // An entry is `[N] [Title](URL)`, perhaps followed by the read-in-full note (in the report's language).
  for (const m of report.slice(at).matchAll(/^\[(\d+)\] \[.*\]\((\S+)\)(?: \*\([^)]*\)\*)?\s*$/gm)) {
    const url = m[2].replace(/%20/g, " ").replace(/%28/g, "(").replace(/%29/g, ")");
    const source = byUrl.get(urlKey(url));
    if (source) numbered.set(Number(m[1]), source);
  }
  return { body: report.slice(0, at).trim(), numbered };
}

/** What the items are judged against: the report's scaffolding and its citations' verdicts by source. */
export interface KnowledgeEvidence {
  scaffolding: readonly string[];
  verdicts: VerdictsBySource;
}

/**
 * Model items → store items: source numbers mapped to stored ids (others dropped), duplicates and
 * the report's own scaffolding (title, headings, notices) removed, and each item's confidence
 * taken from its evidence (knowledge-evidence.ts), whatever the model put there.
 */
export function toKnowledgeItems(
  extracted: ExtractedKnowledge,
  numbered: ReadonlyMap<number, SourceRecord>,
  evidence: KnowledgeEvidence = { scaffolding: [], verdicts: new Map() },
): KnowledgeItemInput[] {
  const seen = new Set<string>();
  const out: KnowledgeItemInput[] = [];
  for (const item of extracted.items) {
    const content = item.content.trim();
    const key = content.toLowerCase().replace(/\s+/g, " ");
    if (!content || seen.has(key) || isScaffolding(content, evidence.scaffolding)) continue;
    seen.add(key);
    const sourceIds = [
      ...new Set(
        item.sources.flatMap((n) => (numbered.has(n) ? [(numbered.get(n) as SourceRecord).id] : [])),
      ),
    ];
    out.push({
      category: item.category,
      content,
      sourceIds,
      confidence: evidenceConfidence(sourceIds, evidence.verdicts),
      // A finding nobody can trace to a source, or one a cited source was found not to support,
      // is for a person to judge.
      needsReview:
        item.needs_review ||
        (item.category === "finding" && sourceIds.length === 0) ||
        contradicted(sourceIds, evidence.verdicts),
    });
  }
  return out;
}

/** Extracts and stores provisional knowledge items; returns how many were stored (0 on any failure). */
export async function extractKnowledge(
  deps: EngineDeps,
  input: { question: string; report: string; sources: SourceRecord[] },
): Promise<number> {
  try {
    // A phase re-run after a crash (items stored, phase not checkpointed) does not ask again: a
    // second answer would be worded differently and slip past the store's per-run key.
    const stored = await deps.store.countRunKnowledge();
    if (stored > 0) {
      await deps.events.emit({ type: "knowledge.extracted", count: stored });
      return stored;
    }
    const { body: report, numbered } = numberedReportSources(input.report, input.sources);
    const { text: body, scaffolding } = withoutScaffolding(report);
    const list = [...numbered].map(([number, s]) => ({ number, title: s.title, url: s.url }));
    const instructions = knowledgeInstructions(deps.config.reportLanguage);
    const prompt = (report: string) => knowledgePrompt({ question: input.question, report, sources: list });
    const reportText = body.length > MAX_REPORT_CHARS ? `${body.slice(0, MAX_REPORT_CHARS)}\n[…]` : body;
    const { value } = await withTokenRecovery(deps, {
      phase: "knowledge",
      role: "supervisor",
      items: [{ text: reportText, priority: "critical", round: 0, order: 0 }],
      fixedChars: instructions.length + prompt("").length,
      call: ([item]) =>
        deps.models.object("supervisor", {
          instructions,
          prompt: prompt(item?.text ?? ""),
          schema: knowledgeSchema,
          schemaName: "knowledge_items",
          abortSignal: deps.signal,
        }),
      fallback: () => undefined,
    });
    if (!value) throw new Error("the report did not fit the model's context window");
    if (!value.ok) throw value.error;
    const verdicts = verdictsBySource(await deps.store.listCitations());
    const items = toKnowledgeItems(value.value, numbered, { scaffolding, verdicts });
    await deps.store.saveKnowledgeItems(items);
    await deps.events.emit({ type: "knowledge.extracted", count: items.length });
    return items.length;
  } catch (error) {
    throwIfAborted(deps.signal);
    await recordDegradation(deps, { step: "knowledge", role: "supervisor", error });
    const reason = error instanceof Error ? error.message : String(error);
    await deps.events.emit({
      type: "knowledge.extracted",
      count: 0,
      failed: true,
      reason: reason.slice(0, 500),
    });
    return 0;
  }
}
