// The report's page in each language, rendered for real: the draft line, the export bar, the file
// exports, the citation check's line and the share panel say their words in the page's language,
// and no English message of two or more words is left in a German or Chinese page.
import { createElement, type ReactNode } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import de from "../../messages/de.json";
import en from "../../messages/en.json";
import zh from "../../messages/zh.json";
import { withMessages } from "../../test/support/intl.ts";
import { FileExports } from "../exports/file-exports.tsx";
import { ReportPanel } from "../run/report-panel.tsx";
import type { RunViewJson } from "../run/types";
import { ExportBar } from "./export-bar.tsx";

const catalogues = { en, de, zh };
type Locale = keyof typeof catalogues;

/** A message by its dotted key, as written (no arguments filled in). */
const message = (locale: Locale, key: string): string =>
  key
    .split(".")
    .reduce<unknown>((node, part) => (node as Record<string, unknown>)[part], catalogues[locale]) as string;

/** The messages of the namespaces this work owns, English, without arguments, of two words or more. */
function englishPhrases(
  tree: object = { report: en.report, share: en.share, exports: en.exports },
): string[] {
  return Object.values(tree).flatMap((v) =>
    typeof v === "string" ? (/[{}]/.test(v) || !/\S\s+\S/.test(v) ? [] : [v]) : englishPhrases(v),
  );
}

/** The page's text and the names and hints its elements carry (aria-label, title, placeholder). */
function visibleWords(html: string): string {
  const attributes = [...html.matchAll(/\b(?:aria-label|title|placeholder)="([^"]*)"/g)].map((m) => m[1]);
  const text = html.replace(/<[^>]*>/g, "\n");
  return [text, ...attributes].join("\n").replaceAll("&quot;", '"').replaceAll("&#x27;", "'");
}

const render = (node: ReactNode, locale: Locale) => renderToStaticMarkup(withMessages(node, locale));

function storedRun(): RunViewJson {
  const run = {
    id: "00000000-0000-4000-8000-000000000000",
    question: "Heat pumps?",
    status: "completed",
    report: "# Heat pumps\n\nA claim [1].\n\n## Sources\n\n[1] [Cold](https://web.example/cold)\n",
    reportPartial: false,
    importedFrom: { originalId: "x", exportedAt: "2031-03-04T10:00:00.000Z" },
  };
  const citationStats = { supported: 3, partially_supported: 1, unsupported: 1, unchecked: 0 };
  return { ...run, citationStats, citations: [], sources: [] } as unknown as RunViewJson;
}

describe("the report's page words", () => {
  it.each(["de", "zh"] as const)("in %s, leave no English phrase on the finished report's page", (locale) => {
    const html = render(createElement(ReportPanel, { run: storedRun(), liveReport: "" }), locale);
    const words = visibleWords(html);
    for (const key of ["export.copy", "export.print", "region"])
      expect(words).toContain(message(locale, `report.${key}`));
    for (const key of ["panel.heading", "panel.create", "panel.allowDownload", "panel.never"])
      expect(words).toContain(message(locale, `share.${key}`));
    expect(words).toContain(message(locale, "exports.bundle"));
    const left = englishPhrases().filter((phrase) => words.includes(phrase));
    expect(left).toEqual([]);
  });

  it("in English, keep the words the end-to-end tests find the page by", () => {
    const html = render(createElement(ReportPanel, { run: storedRun(), liveReport: "" }), "en");
    for (const words of [
      "Copy as Markdown",
      "Print or save as PDF",
      "Share the report",
      "Create link",
      "Run bundle",
    ])
      expect(html).toContain(words);
    expect(html).toContain('aria-label="Report"');
    expect(html).toContain("3 of 5 citations supported by their sources");
    expect(html).toContain("Imported from a run bundle exported Mar 4, 2031");
  });

  it("say the draft line in the page's language", () => {
    const draft = { ...storedRun(), report: null, status: "running" } as unknown as RunViewJson;
    for (const locale of ["en", "de", "zh"] as const) {
      const html = render(
        createElement(ReportPanel, { run: draft, liveReport: "A first paragraph." }),
        locale,
      );
      expect(html).toContain(message(locale, "report.draft"));
    }
    expect(message("en", "report.draft")).toBe("Draft: the report is being written.");
  });

  it("date an imported run's notice in the page's language", () => {
    const exports = (locale: Locale) =>
      render(
        createElement(FileExports, { runId: "r", ended: true, importedFrom: storedRun().importedFrom }),
        locale,
      );
    expect(exports("de")).toContain("04.03.2031");
    expect(exports("zh")).toContain("2031年3月4日");
    expect(render(createElement(ExportBar, { runId: "r" }), "zh")).toContain("复制为 Markdown");
  });
});
