/**
 * The findings a report is written from: every directive's compressed findings with its local
 * citation numbers rewritten to the run-wide ones (the citable sources, numbered 1..n), without the
 * researcher's tool log.
 */
import type { EngineDeps } from "../deps.ts";
import type { SynthesisFindings } from "../prompts/synthesis.ts";
import type { DirectiveRecord, DirectiveSourceRecord, SourceRecord } from "../store.ts";
import { parseLocalSourceList } from "./citations/bibliography.ts";
import { renumberLocalCitations } from "./citations/markers.ts";
import { hasSnapshot, indexSourcesByUrl, urlKey } from "./citations/source-list.ts";
import type { RecoveryItem } from "./token-recovery.ts";

/** One directive's findings, ready for the prompt and for token recovery. */
export interface FindingsItem extends RecoveryItem, SynthesisFindings {
  directiveId: string;
}

/** The sources the report may cite, numbered 1..n in the store's (stable) order: those with a text snapshot. */
export function citableSources(sources: readonly SourceRecord[]): SourceRecord[] {
  return sources.filter(hasSnapshot);
}

/** Drops the researcher's log of queries and tool calls: useful to the supervisor, noise in a report. */
function withoutToolLog(findings: string): string {
  const lines = findings.split("\n");
  const out: string[] = [];
  let skipLevel: number | undefined;
  for (const line of lines) {
    const h = line.match(/^(#{1,6})\s+(.*)$/);
    if (skipLevel !== undefined) {
      if (!h || h[1].length > skipLevel) continue;
      skipLevel = undefined;
    }
    if (h && /^queries and tool calls/i.test(h[2].trim())) {
      skipLevel = h[1].length;
      continue;
    }
    out.push(line);
  }
  return out.join("\n").trim();
}

/**
 * Every directive's findings with its local citation numbers rewritten to the run-wide ones. The
 * local list is read from the findings (matched by URL); findings without one are taken to number
 * the directive's own sources in stored order, which is how compression numbers them. A local
 * number that maps to nothing citable is removed rather than left to be misread as a run-wide one.
 */
export async function prepareFindings(
  deps: EngineDeps,
  input: {
    directives: readonly DirectiveRecord[];
    findings: readonly { directiveId: string; findings: string }[];
    /** Each directive's sources in stored order, when the caller has them. */
    directiveSources?: ReadonlyMap<string, DirectiveSourceRecord[]>;
  },
  numbered: readonly SourceRecord[],
): Promise<FindingsItem[]> {
  const numberOf = new Map(numbered.map((s, i) => [s.id, i + 1]));
  const byUrl = indexSourcesByUrl(numbered);
  const directives = new Map(input.directives.map((d) => [d.id, d]));
  const parsed = input.findings.map((f) =>
    f.findings.trim() ? parseLocalSourceList(f.findings) : undefined,
  );
  // Findings without their own source list number sources in the directive's order: one read for all.
  const needed = input.findings.filter((_, i) => parsed[i] && !parsed[i].urls.size).map((f) => f.directiveId);
  const given = input.directiveSources;
  const ownSources =
    given && needed.every((id) => given.has(id)) ? given : await deps.store.listSourcesOfDirectives(needed);
  const items: FindingsItem[] = [];
  for (const [index, f] of input.findings.entries()) {
    const local = parsed[index];
    if (!local) continue;
    const d = directives.get(f.directiveId);
    const { urls, body } = local;
    let toGlobal: (k: number) => number | undefined;
    if (urls.size) {
      toGlobal = (k) => {
        const url = urls.get(k);
        const source = url === undefined ? undefined : byUrl.get(urlKey(url));
        return source && numberOf.get(source.id);
      };
    } else {
      const own = ownSources.get(f.directiveId) ?? [];
      toGlobal = (k) => {
        const source = own[k - 1];
        return source && numberOf.get(source.id);
      };
    }
    const text = renumberLocalCitations(withoutToolLog(body), toGlobal).text;
    items.push({
      directiveId: f.directiveId,
      ordinal: d?.ordinal ?? index + 1,
      topic: d?.topic ?? `Research topic ${index + 1}`,
      priority: d?.priority ?? "normal",
      round: d?.round ?? 0,
      order: d?.ordinal ?? index + 1,
      text,
    });
  }
  return items.sort((a, b) => a.ordinal - b.ordinal);
}
