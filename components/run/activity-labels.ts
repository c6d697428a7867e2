/**
 * Small plain-language helpers for the run page's activity: why a researcher stopped, what a model
 * role does, and a URL or text shortened for one line. The engine's raw words stay in the API; the
 * words come from the messages (`run.*`), in the page's language.
 */
import { labelOf, type Translate } from "./run-words";

/** Why a researcher stopped, in words (an unknown reason from an older version is de-snaked). */
export function stopReasonLabel(t: Translate, reason: string | null | undefined): string {
  return labelOf(t, "run.stopReason", reason);
}

/** A model role (usage by role, retries) in words. */
export function roleLabel(t: Translate, role: string): string {
  return labelOf(t, "run.role", role);
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

/** The browser tab's title for a run: "<question, shortened> — Deep Research". */
export function runTitle(question: string, t: Translate): string {
  return t("run.pageTitle", { question: clip(question, 70) });
}

/**
 * A supervisor's reason in words: without the stop code it starts with ("coverage_sufficient: …"),
 * and with the one coverage figure the page uses (a percent) instead of a raw confidence; the
 * model's own "overall" figure is left out, so one round never shows two coverage numbers. The
 * reason is the engine's own (English) text, shown as it is written.
 */
export function plainReason(reason: string): string {
  return reason
    .replace(/^[a-z]+(?:_[a-z]+)+:\s*/, "")
    .replace(/heuristic confidence (\d(?:\.\d+)?)/g, (_, x) => `coverage ${Math.round(Number(x) * 100)}%`)
    .replace(/\s*\(overall \d(?:\.\d+)?\)/g, "")
    .replaceAll("directive(s)", "directives")
    .replaceAll("source(s)", "sources");
}
