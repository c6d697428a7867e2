/**
 * The normalised URLs this run has stored as sources, shared by its researchers: read from the
 * store once per researcher context (a resumed run starts from what it stored before) and kept up
 * to date in memory as researchers store more. A search marks a hit "known in this run" from it at
 * once, so the hits' rows can be written behind the researcher's next call instead of before it.
 */
import type { RunStore } from "../../store.ts";

export interface KnownSources {
  /** Records the URL as stored; true when the run had it already. */
  claim(normalizedUrl: string): boolean;
}

const byContext = new WeakMap<object, Promise<KnownSources>>();

export function knownSourcesFor(
  context: object,
  store: Pick<RunStore, "listSources">,
): Promise<KnownSources> {
  let known = byContext.get(context);
  if (!known) {
    known = store.listSources().then((sources) => {
      const urls = new Set(sources.map((s) => s.normalizedUrl));
      return {
        claim(normalizedUrl) {
          if (urls.has(normalizedUrl)) return true;
          urls.add(normalizedUrl);
          return false;
        },
      };
    });
    // A failed read is not kept: the next researcher reads again.
    known.catch(() => byContext.delete(context));
    byContext.set(context, known);
  }
  return known;
}
