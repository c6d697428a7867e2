/**
 * Small plain-language helpers for the run page's activity: why a researcher stopped, what a model
 * role does, and a URL or text shortened for one line. The engine's raw words stay in the API.
 */
import type { ResearcherStopReason } from "@/lib/research/ui";
import { labelFor, modelRoleLabels } from "../labels";

export const stopReasonLabels: Record<ResearcherStopReason, string> = {
  complete: "it judged the topic covered",
  relevant_sources: "enough relevant pages were read",
  similar_searches: "its searches kept finding the same pages",
  budget: "its tool budget was spent",
  no_tool_calls: "the model stopped using its tools",
  aborted: "it was interrupted",
  context_limit: "the conversation outgrew the model's memory",
  step_limit: "it took too many steps without searching or reading",
};

/** Why a researcher stopped, in words (an unknown reason from an older version is de-snaked). */
export function stopReasonLabel(reason: string | null | undefined): string {
  return labelFor(stopReasonLabels, reason);
}

/** A model role (usage by role, retries) in words. */
export function roleLabel(role: string): string {
  return labelFor(modelRoleLabels, role);
}

/** `example.org/some/path…`: host and the start of the path, for one line of text. */
export function shortUrl(url: string, max = 48): string {
  let text = url;
  try {
    const u = new URL(url);
    text = `${u.host}${u.pathname === "/" ? "" : u.pathname}`;
  } catch {
    // Not a URL we can parse (e.g. library://): show it as it is, shortened.
  }
  return clip(text, max);
}

/** Text cut to `max` characters on one line, with an ellipsis when cut. */
export function clip(text: string, max: number): string {
  const line = text.replace(/\s+/g, " ").trim();
  return line.length > max ? `${line.slice(0, max - 1).trimEnd()}…` : line;
}

/** "1 source", "3 sources". */
export function plural(n: number, word: string, many = `${word}s`): string {
  return `${n} ${n === 1 ? word : many}`;
}

/** The browser tab's title for a run: "<question, shortened> — Deep Research". */
export function runTitle(question: string): string {
  return `${clip(question, 70)} — Deep Research`;
}

/**
 * A supervisor's reason in words: without the stop code it starts with ("coverage_sufficient: …"),
 * and with the one coverage figure the page uses (a percent) instead of a raw confidence; the
 * model's own "overall" figure is left out, so one round never shows two coverage numbers.
 */
export function plainReason(reason: string): string {
  return reason
    .replace(/^[a-z]+(?:_[a-z]+)+:\s*/, "")
    .replace(/heuristic confidence (\d(?:\.\d+)?)/g, (_, x) => `coverage ${Math.round(Number(x) * 100)}%`)
    .replace(/\s*\(overall \d(?:\.\d+)?\)/g, "")
    .replaceAll("directive(s)", "directives")
    .replaceAll("source(s)", "sources");
}
