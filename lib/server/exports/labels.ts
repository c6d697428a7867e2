/**
 * The words an export adds to the report — the Sources section's, the verdicts', the header's — in
 * the report's language (a stored report has one language, whoever downloads it).
 */
import type { CitationSupport, ReportLanguage } from "../../research/ui.ts";
import { REPORT_WORDS } from "../../research/ui.ts";

export interface ExportWords {
  sources: string;
  partial: string;
  dateLine: (date: Date) => string;
  passage: string;
  recordedElsewhere: string;
  verdict: (support: CitationSupport, recordedElsewhere: boolean) => string;
  /** What a share link's reader gets in place of a private library document's title and link. */
  privateDocument: string;
}

interface Table {
  partial: string;
  dateLine: string;
  passage: string;
  recordedElsewhere: string;
  asRecorded: string;
  privateDocument: string;
  verdicts: Record<CitationSupport, string>;
}

const TABLES: Record<ReportLanguage, Table> = {
  en: {
    partial: "Partial report: research was stopped early, the report rests on what was gathered by then.",
    dateLine: "Deep research report",
    passage: "Stored passage",
    recordedElsewhere: "Verdicts as recorded by the instance this run was imported from.",
    asRecorded: "as recorded by the original instance",
    privateDocument: "private document",
    verdicts: {
      supported: "Supported by the source",
      partially_supported: "Partly supported by the source",
      unsupported: "Not supported by the source",
      unchecked: "Not checked",
    },
  },
  de: {
    partial:
      "Unvollständiger Bericht: Die Recherche wurde vorzeitig beendet, der Bericht beruht auf dem bis dahin Gesammelten.",
    dateLine: "Recherchebericht",
    passage: "Gespeicherte Textstelle",
    recordedElsewhere:
      "Bewertungen, wie sie die Instanz festgehalten hat, aus der dieser Lauf importiert wurde.",
    asRecorded: "wie von der ursprünglichen Instanz festgehalten",
    privateDocument: "privates Dokument",
    verdicts: {
      supported: "Von der Quelle gestützt",
      partially_supported: "Von der Quelle teilweise gestützt",
      unsupported: "Von der Quelle nicht gestützt",
      unchecked: "Nicht geprüft",
    },
  },
  zh: {
    partial: "不完整的报告：研究提前结束，报告基于截至当时收集的内容。",
    dateLine: "深度研究报告",
    passage: "存储的段落",
    recordedElsewhere: "判定结果来自导入此运行的原始实例。",
    asRecorded: "由原始实例记录",
    privateDocument: "私有文档",
    verdicts: {
      supported: "来源支持",
      partially_supported: "来源部分支持",
      unsupported: "来源不支持",
      unchecked: "未核查",
    },
  },
};

export function exportWordsFor(language: ReportLanguage): ExportWords {
  const t = TABLES[language];
  return {
    sources: REPORT_WORDS[language].sources,
    partial: t.partial,
    dateLine: (date) => `${t.dateLine} · ${date.toISOString().slice(0, 10)}`,
    passage: t.passage,
    recordedElsewhere: t.recordedElsewhere,
    privateDocument: t.privateDocument,
    verdict: (support, recordedElsewhere) =>
      recordedElsewhere ? `${t.verdicts[support]} (${t.asRecorded})` : t.verdicts[support],
  };
}

/** Long stored passages are cut in a file: the claim's context, not the page. */
export function shortPassage(passage: string, max = 1200): string {
  const flat = passage.replace(/\s+/g, " ").trim();
  return flat.length <= max ? flat : `${flat.slice(0, max).trimEnd()}…`;
}
