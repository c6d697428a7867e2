/**
 * The sources one researcher stores or uses. Each goes through the run's store (a new one is
 * announced with `source.added`), is linked to the directive, and is remembered by its normalised
 * URL, so the researcher's second look at a page needs no query.
 */
import type { EngineDeps } from "../../deps.ts";
import { emitAll, type StoredEvent } from "../../events.ts";
import type { NewSourceInput, SourceRecord } from "../../store.ts";
import { classifySourceQuality } from "./source-quality.ts";

export interface StoredSource {
  source: SourceRecord;
  created: boolean;
}

export interface ResearcherSources {
  /** Every source this researcher stored or used, in first-use order. */
  readonly ids: ReadonlySet<string>;
  /**
   * Stores a source for this directive (or finds the run's row for its URL) and records it as used.
   * A new source is announced with `source.added`; given `later`, that event is put there instead,
   * for the caller to emit with the events of its step, in one block after its other writes.
   */
  remember(input: NewSourceInput, later?: StoredEvent[]): Promise<StoredSource>;
  /**
   * remember for a search's hits at once: one result per input, in order (written together). With
   * `later`, the `source.added` events go there (as for remember).
   */
  rememberAll(inputs: readonly NewSourceInput[], later?: StoredEvent[]): Promise<StoredSource[]>;
  /** A page the run already stored (this researcher's hits first, then anyone's). */
  stored(normalizedUrl: string): Promise<SourceRecord | undefined>;
  /**
   * Links an existing source to this directive and records it as used here. One this researcher
   * already stored or linked is not written again.
   */
  link(source: SourceRecord): Promise<StoredSource>;
  /**
   * Records that this researcher read the source's text (a page fetched, or a stored text shown):
   * only read sources count towards the directive's coverage; search hits are merely seen.
   */
  markRead(source: SourceRecord): Promise<void>;
  /** Adds the text snapshot to a source stored without one; one that has text is left as it is. */
  setContent(source: SourceRecord, content: string, title: string): Promise<SourceRecord>;
}

export function createResearcherSources(deps: EngineDeps, directiveId: string): ResearcherSources {
  const { store, events } = deps;
  const mine = new Map<string, SourceRecord>(); // by normalised URL
  const ids = new Set<string>();

  const added = (source: SourceRecord) =>
    ({
      type: "source.added",
      sourceId: source.id,
      directiveId,
      url: source.url,
      title: source.title,
      domain: source.domain,
      quality: source.quality,
      provider: source.provider,
    }) as const;
  const keep = (source: SourceRecord) => {
    mine.set(source.normalizedUrl, source);
    ids.add(source.id);
  };

  const remember = async (input: NewSourceInput, later?: StoredEvent[]): Promise<StoredSource> => {
    const result = await store.addSource(directiveId, input);
    keep(result.source);
    if (result.created) {
      if (later) later.push(added(result.source));
      else await events.emit(added(result.source));
    }
    return result;
  };

  // A search's hits in a few writes instead of three per hit: on a run's critical path, with every
  // researcher storing its hits at the same moment, those writes queue behind each other.
  const rememberAll = async (
    inputs: readonly NewSourceInput[],
    later?: StoredEvent[],
  ): Promise<StoredSource[]> => {
    const results = await store.addSources(directiveId, inputs);
    for (const r of results) keep(r.source);
    const announced = results.filter((r) => r.created).map((r) => added(r.source));
    if (later) later.push(...announced);
    else await emitAll(events, announced);
    return results;
  };

  const link = async (s: SourceRecord): Promise<StoredSource> => {
    // Already linked by this researcher (its own search hit, or a page it read): nothing to write.
    if (ids.has(s.id)) return { source: mine.get(s.normalizedUrl) ?? s, created: false };
    return remember({
      url: s.url,
      normalizedUrl: s.normalizedUrl,
      title: s.title,
      domain: s.domain,
      provider: s.provider,
      quality: s.quality,
      snippet: s.snippet,
      content: s.content,
    });
  };

  return {
    ids,
    remember,
    rememberAll,
    stored: async (normalizedUrl) => mine.get(normalizedUrl) ?? (await store.getSourceByUrl(normalizedUrl)),
    link,
    markRead: async (s) => {
      if (!ids.has(s.id)) await link(s);
      await store.markSourceRead(directiveId, s.id);
    },
    setContent: async (s, content, title) => {
      if (s.content) return s;
      // A hit was judged by its snippet; the text now read may show it is a paper, docs or a forum.
      const quality = classifySourceQuality(s.url, { title: s.title.trim() || title, text: content });
      const updated = await store.updateSourceContent(
        s.id,
        content,
        s.title.trim() ? undefined : title,
        quality === s.quality ? undefined : quality,
      );
      if (updated) mine.set(updated.normalizedUrl, updated);
      return updated ?? s;
    },
  };
}
