/**
 * The normalised URLs this run has stored as sources, shared by its researchers: seeded from what
 * the supervision phase read at its start (a resumed run starts from what it stored before) and
 * kept up to date in memory as researchers store more. A search marks a hit "known in this run"
 * from it at once, so the hits' rows can be written beside the researcher's next call instead of
 * before it.
 */
export interface KnownSources {
  /** Records the URL as stored; true when the run had it already. */
  claim(normalizedUrl: string): boolean;
}

export function createKnownSources(stored: Iterable<string> = []): KnownSources {
  const urls = new Set(stored);
  return {
    claim(normalizedUrl) {
      if (urls.has(normalizedUrl)) return true;
      urls.add(normalizedUrl);
      return false;
    },
  };
}
