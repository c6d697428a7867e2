/**
 * The home form, the knowledge cards and the library list in German and Chinese: rendered with
 * each locale's messages, they show that locale's words and no English sentence of these pages
 * (a message of two or more words from the home, knowledge, library, table or importBundle modules).
 */
import { NextIntlClientProvider } from "next-intl";
import { type ComponentProps, createElement, type ReactElement } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import type { Locale } from "@/i18n/locale";
import type { RunFormOptions } from "@/lib/server/runs/form";
import de from "../../messages/de.json";
import en from "../../messages/en.json";
import zh from "../../messages/zh.json";
import { defaultStart } from "../home/form-start";
import { LibraryNotice } from "../home/library-notice";
import { Presets } from "../home/presets";
import { RunOptions } from "../home/run-options";
import { KnowledgeRow } from "../knowledge/knowledge-row";
import { StatusFilter } from "../knowledge/status-filter";
import type { KnowledgeEntryView } from "../knowledge/types";
import { DocumentList } from "./document-table";
import type { LibraryDocumentView } from "./types";

const catalogues = { en, de, zh } as unknown as Record<Locale, typeof en>;

const preset = {
  maxSupervisionRounds: 2,
  maxConcurrentResearchers: 3,
  researcherToolBudget: 8,
  relevantSourcesToStop: 4,
  maxCostUsd: 0.5,
};
const options = {
  presets: { quick: preset, standard: preset, deep: { ...preset, maxCostUsd: 2 } },
  defaultPreset: "standard",
  max: { ...preset, maxCostUsd: 5, maxTokens: 100000 },
  providers: [
    { name: "library", label: "Your document library" },
    { name: "searxng", label: "The web (SearXNG)" },
  ],
  defaultProviders: ["searxng"],
  models: {
    roles: [
      { role: "supervisor", model: "a" },
      { role: "researcher", model: "b" },
    ],
    allowed: ["a", "b"],
  },
  searchProblem: null,
} as unknown as RunFormOptions;

const entry = {
  item: {
    id: "k1",
    content: "Heat pumps need a low flow temperature.",
    category: "lesson",
    status: "provisional",
    confidence: 0.8,
    own: true,
    shared: false,
    origin: "run",
    sourceIds: ["s1", "s2"],
  },
  ids: ["k1"],
  runs: [
    { id: "r1", question: "Heat pumps?" },
    { id: "r2", question: "Radiators?" },
  ],
  sources: [],
} as unknown as KnowledgeEntryView;

const documents = [
  {
    id: "d1",
    title: "Radiator sizing",
    mimeType: "text/markdown",
    chars: 1234,
    createdAt: "2026-03-01T12:00:00.000Z",
    sourceUrl: null,
    shared: true,
    own: true,
  },
] as unknown as LibraryDocumentView[];

const noop = () => {};
const start = defaultStart(options);

function page(): ReactElement {
  return createElement("div", null, [
    createElement(Presets, { key: "p", options, value: "standard", onChange: noop }),
    createElement(RunOptions, { key: "o", options, values: start.values, onChange: noop }),
    createElement(LibraryNotice, { key: "n", options, selected: ["searxng"] }),
    createElement(StatusFilter, {
      key: "f",
      filter: "all",
      total: 1,
      counts: { provisional: 1, established: 0, deprecated: 0 },
      onChange: noop,
    }),
    createElement(KnowledgeRow, {
      key: "k",
      entry,
      pending: false,
      editing: false,
      canShare: true,
      formAction: noop,
      onEdit: noop,
      onCancel: noop,
    }),
    createElement(DocumentList, {
      key: "l",
      documents,
      confirming: null,
      busy: false,
      canShare: true,
      onShare: noop,
      onConfirm: noop,
      onDelete: noop,
    }),
  ]);
}

/** The page's visible text and accessible names, as a reader or a screen reader meets them. */
function rendered(locale: Locale): string {
  const html = renderToStaticMarkup(
    createElement(
      NextIntlClientProvider,
      // The children come as createElement's third argument, which the props' type does not see.
      { locale, messages: catalogues[locale], timeZone: "UTC" } as ComponentProps<
        typeof NextIntlClientProvider
      >,
      page(),
    ),
  );
  const attributes = [...html.matchAll(/(?:aria-label|placeholder|title)="([^"]*)"/g)].map((m) => m[1]);
  return `${html.replace(/<[^>]+>/g, " ")} ${attributes.join(" ")}`.replace(/\s+/g, " ");
}

/** The English sentences of these pages: messages of two or more words, their arguments cut out. */
function englishPhrases(): string[] {
  const mine = ["home", "knowledge", "library", "table", "importBundle"] as const;
  const flatten = (tree: object): string[] =>
    Object.values(tree).flatMap((v) => (typeof v === "string" ? [v] : flatten(v)));
  return mine
    .flatMap((ns) => flatten(en[ns]))
    .flatMap((m) => m.split(/\{[^{}]*(?:\{[^{}]*\}[^{}]*)*\}|<\/?\w+>/))
    .map((part) => part.trim())
    .filter((part) => part.split(/\s+/).length >= 2 && /[a-z]{3}/.test(part));
}

describe("the home form, knowledge cards and library list in the page's language", () => {
  it("render in English as before", () => {
    const text = rendered("en");
    expect(text).toContain("How thorough");
    expect(text).toContain(
      "Your document library is not searched in this run; it searches only The web (SearXNG).",
    );
    expect(text).toContain("confidence 80%");
    expect(text).toContain("also found in 1 run:");
    expect(text).toContain("1,234 chars");
    expect(text).toContain("Stop sharing: Radiator sizing");
    // The check below has teeth: in English, many of these pages' sentences are on it.
    expect(englishPhrases().filter((phrase) => text.includes(phrase)).length).toBeGreaterThan(30);
  });

  it.each(["de", "zh"] as const)("render in %s with no English sentence of these pages", (locale) => {
    const text = rendered(locale);
    const english = englishPhrases().filter((phrase) => text.includes(phrase));
    expect(english).toEqual([]);
  });

  it("say German words in German, with German numbers", () => {
    const text = rendered("de");
    expect(text).toContain("Wie gründlich");
    expect(text).toContain("Optionen");
    expect(text).toContain("nicht durchsucht");
    expect(text).toContain("Zuverlässigkeit 80 %");
    expect(text).toContain("1.234 Zeichen");
    expect(text).toContain("Nicht mehr teilen: Radiator sizing");
    expect(text).toContain("Deutsch");
  });

  it("say Chinese words in Chinese", () => {
    const text = rendered("zh");
    expect(text).toContain("研究深度");
    expect(text).toContain("置信度 80%");
    expect(text).toContain("1,234 个字符");
    expect(text).toContain("待审阅");
  });
});
