/**
 * A shared report as anyone holding a live share token reads it (the share page). Creating, listing
 * and revoking links are the owner's: create.ts, list.ts, revoke.ts.
 */
import { getReport, listCitations } from "../../../db/queries/research.ts";
import { deadShareState, liveShareForToken } from "../../../db/queries/shares.ts";
import { listSources } from "../../../db/queries/sources.ts";
import type { Citation, Source } from "../../../db/schema.ts";
import type { Runtime } from "../../jobs/runtime.ts";
import { runReportLanguage } from "../../research/index.ts";
import type { Because, ReportLanguage } from "../../research/ui.ts";
import { type SharedQuestion, sharedThread } from "./thread.ts";

export type { SharedQuestion } from "./thread.ts";

/**
 * A citation as the share page shows it: its verdict and, for a web source, the stored passage and
 * the support check's reason, in English and as data (for a private document both stay with its
 * owner: the reason is the model's paraphrase of the passage).
 */
export interface SharedCitation {
  number: number;
  sourceId: string;
  sentence: string;
  support: Citation["support"];
  reason: string | null;
  /** The reason as data, said in the reader's language; hidden with the reason. */
  because: Because | null;
  passage: string | null;
}

/** A cited source on the share page: a private library document is only "private document". */
export interface SharedSource {
  id: string;
  title: string | null;
  domain: string | null;
  url: string;
}

/** What a share link shows: the question, its date and the report with its citations, nothing else of the run. */
export interface SharedReport {
  question: string;
  /** The language the report is written in: words the page puts into the report follow it, not the reader's. */
  language: ReportLanguage;
  status: string;
  /** When the report was finished (the run's start while it has none). */
  date: Date;
  report: { markdown: string; partial: boolean } | undefined;
  /** The report's citations with their passages, so the page's citation cards need no API call. */
  citations: SharedCitation[];
  sources: SharedSource[];
  /**
   * URLs of the run's sources that came from the owner's private document library. The page shows
   * them as "private document", without title or URL; only web sources are shown as they are.
   */
  privateSourceUrls: string[];
  /** The owner lets the link's readers download the report as a PDF. */
  allowDownload: boolean;
  /** The run's follow-up questions and answers, when the owner included them in the link; else undefined. */
  thread: SharedQuestion[] | undefined;
}

/** The shape of a share token (43 URL-safe characters as made; a little slack either way): anything else names no link. */
export const isShareToken = (token: string): boolean => /^[A-Za-z0-9_-]{20,100}$/.test(token);

/** A source found in the document library (by its provider, or by its library:// address). */
export function isLibrarySource(source: Pick<Source, "provider" | "url">): boolean {
  return source.provider === "library" || /^library:/i.test(source.url);
}

/** The report behind a live token; nothing for an unknown, revoked or expired token. */
export async function sharedReport(
  rt: Runtime,
  token: string,
  now = new Date(),
): Promise<SharedReport | undefined> {
  const found = await liveShareForToken(rt.handle.db, token, now);
  if (!found) return undefined;
  const { run, share } = found;
  const [report, sources, citations] = await Promise.all([
    getReport(rt.handle.db, run.id),
    listSources(rt.handle.db, run.id),
    listCitations(rt.handle.db, run.id),
  ]);
  const privateIds = new Set(sources.filter(isLibrarySource).map((s) => s.id));
  const thread = share.includeThread ? await sharedThread(rt.handle.db, run.id, privateIds) : undefined;
  // The answers may cite read sources the report does not: their entries come along for the cards.
  const cited = new Set([...citations, ...(thread ?? []).flatMap((q) => q.citations)].map((c) => c.sourceId));
  return {
    question: run.question,
    language: runReportLanguage(run.settings, run.question),
    status: run.status,
    date: run.finishedAt ?? run.createdAt,
    report: report && { markdown: report.markdown, partial: report.partial },
    // A private document's passage, the reason that paraphrases it, and its title stay with its
    // owner, like its URL.
    citations: citations.map((c) => {
      const hidden = privateIds.has(c.sourceId);
      return {
        number: c.number,
        sourceId: c.sourceId,
        sentence: c.sentence,
        support: c.support,
        reason: hidden ? null : c.reason,
        because: hidden ? null : c.because,
        passage: hidden ? null : c.passage,
      };
    }),
    sources: sources
      .filter((s) => cited.has(s.id))
      .map((s) =>
        privateIds.has(s.id)
          ? { id: s.id, title: "private document", domain: null, url: "" }
          : { id: s.id, title: s.title, domain: s.domain, url: s.url },
      ),
    privateSourceUrls: sources.filter(isLibrarySource).flatMap((s) => [s.url, s.normalizedUrl]),
    allowDownload: share.allowDownload,
    thread,
  };
}

/**
 * Why a share link opens nothing, for its explanatory page: "unknown" (mistyped or never made),
 * "revoked" or "expired". Tells the holder of a real token no more than the link's own state.
 */
export async function deadShareReason(
  rt: Runtime,
  token: string,
  now = new Date(),
): Promise<"unknown" | "revoked" | "expired"> {
  if (!isShareToken(token)) return "unknown";
  return (await deadShareState(rt.handle.db, token, now)) ?? "unknown";
}
