// No words for a person written into the code: the UI takes them from messages/<locale>.json, the
// report-writing code from lib/research/report/words and lib/server/exports/labels.ts (issue 34).
// Each offender is printed as `file:line: text`. The rules are in i18n/literal-strings.ts.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { REPORT_WORDS } from "../lib/research/report/words/index.ts";
import { exportWordsFor } from "../lib/server/exports/labels.ts";
import {
  type Offender,
  parseFiles,
  reportOffenders,
  root,
  sourceFiles,
  uiOffenders,
} from "./literal-strings.ts";

/** The code that writes words into a report, an answer or an export (the words modules left out). */
const REPORT_WRITERS = [
  "lib/research/report",
  "lib/research/run.ts",
  "lib/research/phases/knowledge.ts",
  "lib/server/exports",
  "lib/server/questions",
  "lib/server/shares",
  "lib/server/mcp/report-resource.ts",
  "lib/server/mcp/export-tool.ts",
  "lib/jobs/questions",
];
const WORDS_MODULES = /^lib\/research\/report\/words\/|^lib\/server\/exports\/labels\.ts$/;

/** Every English word group the code may put into a report: the literal parts of the English words. */
function englishReportPhrases(): string[] {
  const en = REPORT_WORDS.en;
  const exportEn = exportWordsFor("en");
  const texts = [
    ...Object.values(en).filter((v): v is string => typeof v === "string"),
    en.writtenEarly(2, 3, 4),
    en.stoppedBeforeReport("<reason>"),
    en.contextOverflow(2),
    exportEn.partial,
    exportEn.passage,
    exportEn.recordedElsewhere,
    exportEn.dateLine(new Date(0)),
    ...(["supported", "partially_supported", "unsupported", "unchecked"] as const).map((s) =>
      exportEn.verdict(s, true),
    ),
  ];
  // Cut at the arguments and the joins, keep what is left of each: the words written in the code.
  const parts = texts.flatMap((t) => t.split(/\d+|<reason>|\s·\s|[();]\s?/).map((p) => p.trim()));
  return [...new Set(parts.filter((p) => /[A-Za-z]{2,}/.test(p)))];
}

const format = (o: Offender) => `${o.file}:${o.line}: ${o.text}`;

function byFile(offenders: Offender[]): Map<string, Offender[]> {
  const files = new Map<string, Offender[]>();
  for (const o of offenders) files.set(o.file, [...(files.get(o.file) ?? []), o]);
  return files;
}

/** A component with one of each kind of literal the rules must find, and of each they must leave. */
const SAMPLE = `"use client";
import { cn } from "./cn";
export function Sample({ done, t }: { done: boolean; t: (k: string) => string }) {
  const tone = done ? "text-green-700 font-semibold" : "text-muted";
  const hint = "Press Enter to start the run.";
  if (t("state") === "Not started yet") return null;
  console.log("Rendering the sample now");
  return (
    <section aria-label="Run status" className={cn("flex gap-2 items-center", tone)} id="run-status">
      <h2 title={t("title")}>Finished runs</h2>
      <p>{done ? "All done" : t("running")} · 42 — {hint}</p>
      <input placeholder="https://example.org/feed" emptyText="Nothing here" data-kind="plain words here" />
      <a href="/runs/new?from=home" aria-label={\`Open \${t("name")}\`}>Deep Research</a>
      <p><code>searchProviders</code> → <kbd>k</kbd></p>
    </section>
  );
}
`;

function sampleOffenders(): string[] {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "literal-sample-"));
  try {
    fs.writeFileSync(path.join(dir, "sample.tsx"), SAMPLE);
    const report = [
      "const list = `## Sources\\n$" + "{items}`;",
      "const heading = `## $" + "{words.sources}`;",
      'const note = "(read in full)";',
    ].join("\n");
    fs.writeFileSync(path.join(dir, "report.ts"), report);
    return [
      ...parseFiles(["sample.tsx"], uiOffenders, dir),
      ...parseFiles(["report.ts"], (f, s) => reportOffenders(f, s, englishReportPhrases()), dir),
    ].map(format);
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

describe("the rules", () => {
  it("find visible words and leave classes, ids, URLs, keys, logs, code and punctuation", () => {
    expect(sampleOffenders()).toEqual([
      "sample.tsx:5: Press Enter to start the run.",
      "sample.tsx:9: Run status",
      "sample.tsx:10: Finished runs",
      "sample.tsx:11: All done",
      "sample.tsx:12: Nothing here",
      "sample.tsx:13: Open",
      "report.ts:1: ## Sources",
      "report.ts:3: (read in full)",
    ]);
  });
});

describe("words written into the code", () => {
  const uiFiles = [
    ...sourceFiles(["app", "components", "lib"], /\.tsx$/),
    // UI helpers in .ts; route handlers answer the API (its stable English code and message).
    ...sourceFiles(["app", "components"], /\.ts$/).filter((f) => !/^app\/api\/|\/route\.ts$/.test(f)),
  ];
  // The OpenAPI descriptions document the API, whose words are English by contract.
  const reportFiles = sourceFiles(REPORT_WRITERS, /\.tsx?$/).filter(
    (f) => !WORDS_MODULES.test(f) && !/openapi/.test(f),
  );
  const phrases = englishReportPhrases();
  const ui = parseFiles(uiFiles, uiOffenders);
  const reports = parseFiles(reportFiles, (file, source) => reportOffenders(file, source, phrases));
  const all = byFile([...ui, ...reports]);
  if (process.env.LITERAL_STRINGS_REPORT) console.log([...all.values()].flat().map(format).join("\n"));

  it("scans the UI and the report writers", () => {
    expect(uiFiles.length).toBeGreaterThan(100);
    expect(reportFiles).toContain("lib/research/report/citations/source-list.ts");
    expect(phrases).toEqual(expect.arrayContaining(["Sources", "read in full", "Partial report."]));
    expect(root).toMatch(/\S/);
  });

  it("has no literal user-visible string outside the message files", () => {
    expect([...all.values()].flat().map(format)).toEqual([]);
  });
});
