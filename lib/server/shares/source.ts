/**
 * GET /share/:token/sources/:sourceId: what a citation card on the share page shows of one cited
 * source — each claim citing it with its verdict and, for a web source, the stored passage and the
 * check's reason. The share page carries its report once and loads a card's passages here, on
 * demand, instead of from the owner's API (the link's reader has no session). The same rules as
 * the page: a private library document's passage and reason stay with its owner; a dead link, a
 * source of another run or one the shared page does not cite is a 404.
 */
import { getRunSource, listSourceCitations } from "../../../db/queries/research.ts";
import { liveShareForToken } from "../../../db/queries/shares.ts";
import type { Citation } from "../../../db/schema.ts";
import { AppError } from "../../errors.ts";
import type { Runtime } from "../../jobs/runtime.ts";
import { isLibrarySource, isShareToken } from "./view.ts";

export interface SharedSourceCitation {
  number: number;
  sourceId: string;
  sentence: string;
  support: Citation["support"];
  reason: string | null;
  /** The reason as data, said in the reader's language; hidden with the reason. */
  because: Citation["because"];
  passage: string | null;
}

export interface SharedSourceView {
  id: string;
  citations: SharedSourceCitation[];
}

const notFound = () => new AppError("not_found", "No such source in this shared report.");

export async function sharedSourceView(
  rt: Runtime,
  token: string,
  sourceId: string,
  now = new Date(),
): Promise<SharedSourceView> {
  const db = rt.handle.db;
  const found = isShareToken(token) ? await liveShareForToken(db, token, now) : undefined;
  if (!found) throw new AppError("not_found", "No such shared report.");
  const source = await getRunSource(db, found.run.id, sourceId);
  if (!source) throw notFound();
  const rows = await listSourceCitations(db, found.run.id, sourceId);
  // Only what the page cites: a read but uncited source is not part of what was shared.
  if (!rows.length) throw notFound();
  const hidden = isLibrarySource(source);
  return {
    id: source.id,
    citations: rows.map((c) => ({
      number: c.number,
      sourceId: c.sourceId,
      sentence: c.sentence,
      support: c.support,
      reason: hidden ? null : c.reason,
      because: hidden ? null : c.because,
      passage: hidden ? null : c.passage,
    })),
  };
}
