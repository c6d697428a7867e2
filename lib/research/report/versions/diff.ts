/**
 * What changed between two versions of a report, claim by claim. Deterministic: the same two
 * reports always give the same diff, in the same order.
 *
 * Alignment. Two claims are the same claim, possibly reworded, when the Dice coefficient of their
 * word sets (figures left out, words.ts) is at least CLAIM_MATCH_THRESHOLD. Pairs are taken best
 * first (ties: the pair that keeps its figures and sources, then reading order); each claim pairs
 * once. An aligned pair is unchanged when its figures (as a sorted multiset) and its cited sources
 * (by URL) are the same, otherwise it is a changed claim with its before and after. A claim of the
 * newer version aligned with none is added; one of the older version, removed.
 *
 * Sources. Each version's cited sources by URL (urlKey): cited only in the newer one, added; only
 * in the older one, removed; in both with a different hash of their stored text, changed.
 */
import { urlKey } from "../citations/source-list.ts";
import { type Claim, extractClaims } from "./claims.ts";
import { type ClaimWords, claimWords, dice, sameFigures } from "./words.ts";

/**
 * Word overlap (Dice) from which two claims are one claim. 0.6 keeps a reworded sentence (a few
 * words swapped in a sentence of ten or more) together and parts two sentences that share only a
 * subject.
 */
export const CLAIM_MATCH_THRESHOLD = 0.6;

/** One cited source of a version. `textHash`: a hash of its stored text (null: no text kept). */
export interface VersionSource {
  number: number;
  url: string;
  title: string;
  textHash: string | null;
}

/** A stored report as the diff reads it: its Markdown and its cited sources by number. */
export interface ReportVersion {
  markdown: string;
  sources: readonly VersionSource[];
}

export interface DiffSource {
  url: string;
  title: string;
}

export interface VersionDiff {
  claims: { added: Claim[]; removed: Claim[]; changed: { before: Claim; after: Claim }[] };
  sources: { added: DiffSource[]; removed: DiffSource[]; changed: DiffSource[] };
}

interface Prepared {
  claim: Claim;
  words: ClaimWords;
  keys: string;
}

function prepare(version: ReportVersion): Prepared[] {
  const byNumber = new Map(version.sources.map((s) => [s.number, s.url]));
  return extractClaims(version.markdown, (n) => byNumber.get(n)).map((claim) => ({
    claim,
    words: claimWords(claim.text),
    keys: [...new Set(claim.sources.map(urlKey))].sort().join(" "),
  }));
}

interface Pair {
  i: number;
  j: number;
  score: number;
  same: boolean;
}

/** Aligned pairs (before index i, after index j), best first, each claim once. */
function align(before: Prepared[], after: Prepared[]): Pair[] {
  const candidates: Pair[] = [];
  before.forEach((b, i) => {
    after.forEach((a, j) => {
      const score = b.words.key === a.words.key ? 1 : dice(b.words.words, a.words.words);
      if (score < CLAIM_MATCH_THRESHOLD) return;
      candidates.push({ i, j, score, same: sameFigures(b.words, a.words) && b.keys === a.keys });
    });
  });
  candidates.sort((x, y) => y.score - x.score || Number(y.same) - Number(x.same) || x.i - y.i || x.j - y.j);
  const usedBefore = new Set<number>();
  const usedAfter = new Set<number>();
  const pairs: Pair[] = [];
  for (const p of candidates) {
    if (usedBefore.has(p.i) || usedAfter.has(p.j)) continue;
    usedBefore.add(p.i);
    usedAfter.add(p.j);
    pairs.push(p);
  }
  return pairs;
}

function diffSources(before: ReportVersion, after: ReportVersion): VersionDiff["sources"] {
  const index = (v: ReportVersion) => {
    const byKey = new Map<string, VersionSource>();
    for (const s of [...v.sources].sort((a, b) => a.number - b.number)) {
      const key = urlKey(s.url);
      if (!byKey.has(key)) byKey.set(key, s);
    }
    return byKey;
  };
  const was = index(before);
  const now = index(after);
  const view = (s: VersionSource): DiffSource => ({ url: s.url, title: s.title });
  return {
    added: [...now].filter(([k]) => !was.has(k)).map(([, s]) => view(s)),
    removed: [...was].filter(([k]) => !now.has(k)).map(([, s]) => view(s)),
    changed: [...now]
      .filter(([k, s]) => {
        const old = was.get(k);
        return (
          old !== undefined && old.textHash !== null && s.textHash !== null && old.textHash !== s.textHash
        );
      })
      .map(([, s]) => view(s)),
  };
}

/** What changed from `before` (the older version) to `after` (the newer one). */
export function diffReports(before: ReportVersion, after: ReportVersion): VersionDiff {
  const was = prepare(before);
  const now = prepare(after);
  const pairs = align(was, now);
  const pairedBefore = new Set(pairs.map((p) => p.i));
  const pairedAfter = new Set(pairs.map((p) => p.j));
  const changed = pairs
    .filter((p) => !p.same)
    .sort((x, y) => x.j - y.j)
    .map((p) => ({ before: was[p.i].claim, after: now[p.j].claim }));
  return {
    claims: {
      added: now.filter((_, j) => !pairedAfter.has(j)).map((p) => p.claim),
      removed: was.filter((_, i) => !pairedBefore.has(i)).map((p) => p.claim),
      changed,
    },
    sources: diffSources(before, after),
  };
}

/** Two versions differ when a claim was added, removed or changed, or a cited source changed. */
export function versionsDiffer(diff: VersionDiff): boolean {
  const { claims, sources } = diff;
  return claims.added.length + claims.removed.length + claims.changed.length + sources.changed.length > 0;
}
