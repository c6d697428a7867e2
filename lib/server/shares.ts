/**
 * Share links of a run's report: created, listed and revoked by the run's owner, read by anyone
 * holding a live token. Only the token's hash is stored; the link is shown once, at creation.
 */
import { getReport, listCitations } from "../../db/queries/research.ts";
import {
  createShare,
  deadShareState,
  getShareForOwner,
  listSharesForRun,
  revokeShare,
  runForShareToken,
} from "../../db/queries/shares.ts";
import { listSources } from "../../db/queries/sources.ts";
import type { Citation, Share, Source } from "../../db/schema.ts";
import { AppError } from "../errors.ts";
import type { Runtime } from "../jobs/runtime.ts";
import { ownedRun } from "./run-actions.ts";
import type { ShareRequest } from "./share-requests.ts";

const DAY_MS = 24 * 60 * 60 * 1000;

/** A share as its owner sees it: never the token (nor its hash). */
export interface ShareView {
  id: string;
  label: string | null;
  createdAt: Date;
  expiresAt: Date | null;
  revokedAt: Date | null;
}

const shareView = (s: Share): ShareView => ({
  id: s.id,
  label: s.label,
  createdAt: s.createdAt,
  expiresAt: s.expiresAt,
  revokedAt: s.revokedAt,
});

/** A new link to the owner's run: the share and its token, which is not kept anywhere. */
export async function shareRun(
  rt: Runtime,
  runId: string,
  ownerId: string,
  request: ShareRequest,
  now = new Date(),
): Promise<{ share: ShareView; token: string }> {
  await ownedRun(rt.handle.db, runId, ownerId);
  const expiresAt = request.expiresInDays ? new Date(now.getTime() + request.expiresInDays * DAY_MS) : null;
  const { share, token } = await createShare(rt.handle.db, {
    runId,
    label: request.label ?? null,
    expiresAt,
  });
  return { share: shareView(share), token };
}

export async function listRunShares(rt: Runtime, runId: string, ownerId: string): Promise<ShareView[]> {
  await ownedRun(rt.handle.db, runId, ownerId);
  return (await listSharesForRun(rt.handle.db, runId)).map(shareView);
}

/** Revokes one of the owner's shares; a 404 for anyone else's. */
export async function revokeOwnShare(rt: Runtime, shareId: string, ownerId: string): Promise<void> {
  const found = await getShareForOwner(rt.handle.db, shareId, ownerId);
  if (!found) throw new AppError("not_found", "No such share.");
  await revokeShare(rt.handle.db, shareId);
}

/**
 * A citation as the share page shows it: its verdict and, for a web source, the stored passage and
 * the support check's reason (for a private document both stay with its owner: the reason is the
 * model's paraphrase of the passage).
 */
export interface SharedCitation {
  number: number;
  sourceId: string;
  sentence: string;
  support: Citation["support"];
  reason: string | null;
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
}

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
  const run = await runForShareToken(rt.handle.db, token, now);
  if (!run) return undefined;
  const [report, sources, citations] = await Promise.all([
    getReport(rt.handle.db, run.id),
    listSources(rt.handle.db, run.id),
    listCitations(rt.handle.db, run.id),
  ]);
  const cited = new Set(citations.map((c) => c.sourceId));
  const privateIds = new Set(sources.filter(isLibrarySource).map((s) => s.id));
  return {
    question: run.question,
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
  if (!/^[A-Za-z0-9_-]{20,100}$/.test(token)) return "unknown";
  return (await deadShareState(rt.handle.db, token, now)) ?? "unknown";
}
