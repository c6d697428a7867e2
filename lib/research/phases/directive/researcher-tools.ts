/**
 * What a researcher's web_search and extract_content calls do: search through the configured
 * providers and store every hit as a source (with its quality tier and novelty); read a page once
 * per run (the shared seen-URL set), store its text as the source's snapshot and its links as
 * URLs that may be followed, and hand the model the page — condensed by the summarisation role
 * when it is long. A page is read only when the model asks for one of the run's admitted URL
 * strings exactly (readable-urls.ts), and then that admitted string is what is fetched and stored;
 * any other spelling is refused before a request is made, and the model is told the admitted
 * spellings of the same page. Which page is "the same" (seen URLs, known sources) stays a question
 * of normalised URLs; what goes on the network never is.
 */
import { domainOf, isWebUrl, normalizeUrl } from "../../../search/url.ts";
import { because } from "../../because.ts";
import type { EngineDeps } from "../../deps.ts";
import { rethrowIfFatal, throwIfAborted } from "../../errors.ts";
import type { StoredEvent } from "../../events.ts";
import { fetchFailureBecause, NoTextError } from "../../fetch-because.ts";
import { detectLanguage } from "../../language.ts";
import {
  formatAlreadyRead,
  formatFetchFailure,
  formatInvalidUrl,
  formatPage,
  formatRefusedUrl,
  formatSearchFailure,
  formatSearchResults,
  type SearchResultView,
} from "../../prompts/researcher.ts";
import { summarizationInstructions, summarizationPrompt } from "../../prompts/summarization.ts";
import type { DirectiveRecord, NewSourceInput, SourceRecord } from "../../store.ts";
import type { BackgroundEvents } from "./background-events.ts";
import type { KnownSources } from "./known-sources.ts";
import type { NoveltyInput, NoveltyTracker } from "./novelty.ts";
import { extractionKeptFindings, summaryKeptFindings } from "./read-relevance.ts";
import { followableLinks, type ReadableUrls } from "./readable-urls.ts";
import type { ResearcherSources } from "./researcher-sources.ts";
import type { SeenUrls } from "./seen-urls.ts";
import { classifySourceQuality } from "./source-quality.ts";
import type { StopRules } from "./stop-rules.ts";

/** What the tool handlers of one researcher share. */
export interface ToolContext {
  deps: EngineDeps;
  directive: DirectiveRecord;
  /** Shared by every researcher of the run. */
  seenUrls: SeenUrls;
  /** Shared by every researcher of the run: the only URLs extract_content may read. */
  readableUrls: ReadableUrls;
  /** The researcher's writes that its next call need not wait for (a page read's or a search's rows). */
  background: Pick<BackgroundEvents, "store" | "pending" | "flush">;
  /** Shared by every researcher of the run: the URLs it has stored as sources. */
  knownSources: KnownSources;
  novelty: NoveltyTracker;
  sources: ResearcherSources;
  /** This researcher's searches and reads, as its stop rules count them. */
  stopRules: StopRules;
}

/** Roughly a page of text: the summary a long fetched page is condensed to. */
const SUMMARY_MAX_WORDS = 600;
/** Text given to the summariser at most (~30k tokens); a longer page is summarised from its start. */
const MAX_SUMMARIZE_INPUT_CHARS = 120_000;
/** How much of a stored page a researcher is shown when another one already read it. */
const STORED_EXCERPT_CHARS = 2_000;
const SNIPPET_CHARS = 500;
/** Links of a freshly read page listed for the model (all of them may be followed). */
const LINKS_SHOWN = 20;
/** A refused URL is shown in its event only this long: it may carry a whole smuggled text. */
const REFUSED_URL_CHARS = 500;

export const REFUSED_REASON =
  "this URL did not appear, exactly as written, in this run's search results, question, brief or pages read";

function clip(text: string, max: number): string {
  return text.length <= max ? text : `${text.slice(0, max).trimEnd()} …`;
}

export function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/** web_search: every hit stored as a source; the model sees them with quality and novelty marks. */
export async function webSearch(t: ToolContext, query: string): Promise<string> {
  const { config, events, signal } = t.deps;
  const directiveId = t.directive.id;
  await events.emit({ type: "researcher.search", directiveId, query, language: detectLanguage(query) });
  let outcome: Awaited<ReturnType<EngineDeps["search"]>>;
  try {
    outcome = await t.deps.search(query, { maxResults: config.maxSearchResults, signal });
  } catch (e) {
    throwIfAborted(signal);
    const message = messageOf(e);
    await events.emit({
      type: "researcher.search_results",
      directiveId,
      query,
      results: 0,
      fresh: 0,
      duplicates: 0,
      errors: [{ provider: "search", message }],
    });
    t.stopRules.recordSearch([]);
    return formatSearchFailure(query, message);
  }
  const hits = outcome.results.slice(0, config.maxSearchResults);
  t.readableUrls.add(hits.map((hit) => hit.url));
  const inputs: NoveltyInput[] = [];
  const views: Omit<SearchResultView, "mark" | "relatedTo">[] = [];
  const prepared = hits.map((hit) => {
    const domain = domainOf(hit.url);
    return {
      url: hit.url,
      normalizedUrl: normalizeUrl(hit.url),
      title: hit.title.trim() || domain || hit.url,
      domain,
      provider: hit.provider,
      quality: classifySourceQuality(hit.url, { title: hit.title, text: hit.content ?? hit.snippet }),
      snippet: hit.snippet || null,
      content: hit.content?.trim() ? hit.content : null,
    };
  });
  // Which hits the run knows already is known in memory: the hits' rows (and their `source.added`
  // with the step's `researcher.search_results`, one block) are written behind the next call.
  const known = t.knownSources;
  for (const [i, hit] of prepared.entries()) {
    inputs.push({
      normalizedUrl: hit.normalizedUrl,
      domain: hit.domain,
      title: hit.title,
      knownInRun: known.claim(hit.normalizedUrl),
    });
    views.push({
      quality: hit.quality,
      domain: hit.domain,
      url: hit.url,
      title: hit.title,
      snippet: clip(hits[i].snippet, SNIPPET_CHARS),
    });
  }
  const n = t.novelty.assess(inputs);
  t.stopRules.recordSearch(inputs.map((i) => i.normalizedUrl));
  const results: StoredEvent = {
    type: "researcher.search_results",
    directiveId,
    query,
    results: hits.length,
    fresh: n.fresh,
    duplicates: n.duplicates,
    errors: outcome.errors,
  };
  t.background.store(
    prepared.map((hit) => hit.normalizedUrl),
    () => storeSearchHits(t, prepared, results),
  );
  return formatSearchResults({
    query,
    results: views.map((v, i) => ({ ...v, ...n.verdicts[i] })),
    fresh: n.fresh,
    related: n.related,
    duplicates: n.duplicates,
    overlapWithPrevious: n.overlapWithPrevious,
    errors: outcome.errors,
  });
}

/** A search's hits as sources of this directive; their `source.added`, then the step's results. */
async function storeSearchHits(
  t: ToolContext,
  prepared: readonly NewSourceInput[],
  results: StoredEvent,
): Promise<StoredEvent[]> {
  const announced: StoredEvent[] = [];
  const stored = await t.sources.rememberAll(prepared, announced);
  const otherSpellings: { sourceId: string; url: string }[] = [];
  for (const [i, hit] of prepared.entries()) {
    const { source, created } = stored[i];
    // A provider's full text fills a row first stored without any (never overwrites one).
    if (!created && hit.content) await t.sources.setContent(source, hit.content, hit.title);
    // A hit spelling a stored page differently was admitted as spelled: stored beside the row's URL.
    if (source.url !== hit.url) otherSpellings.push({ sourceId: source.id, url: hit.url });
  }
  for (const { sourceId, url } of otherSpellings) await t.deps.store.savePageLinks(sourceId, [url]);
  return [...announced, results];
}

/** extract_content: each page is read once per run; its text becomes the source's snapshot. */
export async function extractContent(t: ToolContext, rawUrl: string): Promise<string> {
  const { events } = t.deps;
  const directiveId = t.directive.id;
  const requested = rawUrl.trim();
  if (!/^[a-z][a-z0-9+.-]*:/i.test(requested) || !URL.canParse(requested)) {
    await events.emit({
      type: "researcher.fetch",
      directiveId,
      url: requested,
      ok: false,
      reason: "invalid URL",
      because: because("fetch_invalid_url"),
    });
    return formatInvalidUrl(requested);
  }
  // Before anything else touches the URL: a composed one never reaches the network or the store.
  const url = t.readableUrls.admitted(requested);
  if (!url) {
    await events.emit({
      type: "researcher.fetch_refused",
      directiveId,
      url: clip(requested, REFUSED_URL_CHARS),
      reason: REFUSED_REASON,
      because: because("fetch_not_admitted"),
    });
    return formatRefusedUrl(requested, t.readableUrls.samePage(requested));
  }
  // From here on only the admitted string is used: fetched, stored, shown.
  const normalizedUrl = normalizeUrl(url);
  // A row of this researcher's still being written beside its calls: in the store before it is looked up.
  await t.background.pending(normalizedUrl);
  if (!t.seenUrls.claim(normalizedUrl)) return showAlreadyRead(t, url, normalizedUrl);

  const existing = await t.sources.stored(normalizedUrl);
  if (existing?.content) {
    // A search provider already gave the full text: that is the snapshot; no need to fetch.
    await t.sources.markRead(existing);
    await events.emit({
      type: "researcher.fetch",
      directiveId,
      url,
      ok: true,
      fromStore: true,
      chars: existing.content.length,
    });
    return presentPage(t, existing.normalizedUrl, url, existing.title, existing.content);
  }

  if (!isWebUrl(url)) {
    const reason = "only http and https pages can be read";
    const why = because("fetch_scheme");
    await events.emit({ type: "researcher.fetch", directiveId, url, ok: false, reason, because: why });
    return formatFetchFailure(url, reason);
  }
  return fetchPage(t, url, normalizedUrl, existing);
}

/** Read (or being read) by this run already: show what is stored instead of fetching again. */
async function showAlreadyRead(t: ToolContext, url: string, normalizedUrl: string): Promise<string> {
  const existing = await t.sources.stored(normalizedUrl);
  if (existing?.content) await t.sources.markRead(existing);
  else if (existing) await t.sources.link(existing);
  const stored = existing
    ? {
        title: existing.title,
        text: clip(existing.content ?? existing.snippet ?? "", STORED_EXCERPT_CHARS),
      }
    : undefined;
  // Only a stored text counts as read here; a bare snippet was seen in the search results already.
  if (existing?.content && stored) {
    t.stopRules.recordRead(existing.normalizedUrl, extractionKeptFindings(t.directive.topic, stored.text));
  }
  await t.deps.events.emit({
    type: "researcher.fetch",
    directiveId: t.directive.id,
    url,
    ok: true,
    fromStore: true,
    reason: "already read in this run",
    because: because("fetch_already_read"),
    chars: existing?.content?.length ?? 0,
  });
  return formatAlreadyRead({ url, stored });
}

/** Fetches a page through the safe fetcher and stores its text (on the row of a bare search hit, if any). */
async function fetchPage(
  t: ToolContext,
  url: string,
  normalizedUrl: string,
  existing: SourceRecord | undefined,
): Promise<string> {
  const { events, signal } = t.deps;
  const directiveId = t.directive.id;
  let doc: Awaited<ReturnType<EngineDeps["fetchDocument"]>>;
  try {
    doc = await t.deps.fetchDocument(url, { signal });
    if (!doc.text.trim()) throw new NoTextError();
  } catch (e) {
    throwIfAborted(signal);
    const reason = messageOf(e);
    const why = fetchFailureBecause(e);
    await events.emit({ type: "researcher.fetch", directiveId, url, ok: false, reason, because: why });
    return formatFetchFailure(url, reason);
  }

  const domain = domainOf(url);
  const title = doc.title.trim() || existing?.title || domain || url;
  const links = followableLinks(doc.links);
  t.readableUrls.add(links);
  t.knownSources.claim(normalizedUrl);
  // What the model is shown needs none of the page's rows: they are written beside the next call,
  // their events in order with the researcher's, all stored before the researcher returns (a resumed
  // run researches an unfinished directive again).
  t.background.store([normalizedUrl], () =>
    storePageRead(t, { url, normalizedUrl, title, domain, doc, links }, existing),
  );
  return presentPage(t, normalizedUrl, url, existing?.title.trim() || title, doc.text, links);
}

/** A page read's rows: its source (or the text on a bare search hit's row), the read mark, its links. */
async function storePageRead(
  t: ToolContext,
  page: {
    url: string;
    normalizedUrl: string;
    title: string;
    domain: string;
    doc: { text: string };
    links: string[];
  },
  existing: SourceRecord | undefined,
): Promise<StoredEvent[]> {
  const { url, normalizedUrl, title, domain, doc, links } = page;
  const directiveId = t.directive.id;
  // The step's events (a new source's `source.added`, then `researcher.fetch`) go out as one block
  // once everything of the step is stored.
  const later: StoredEvent[] = [];
  const { source } = existing
    ? await t.sources.link(existing)
    : await t.sources.remember(
        {
          url,
          normalizedUrl,
          title,
          domain,
          provider: "fetch",
          quality: classifySourceQuality(url, { title, text: doc.text }),
          snippet: clip(doc.text.trim(), 300),
          content: doc.text,
        },
        later,
      );
  // Three independent writes on the stored row, none waiting for another: the text (a bare search
  // hit, stored by us or concurrently by another researcher, gets it), the read mark and the links.
  await Promise.all([
    t.sources.setContent(source, doc.text, title),
    t.sources.markRead(source),
    links.length ? t.deps.store.savePageLinks(source.id, links) : undefined,
  ]);
  return [...later, { type: "researcher.fetch", directiveId, url, ok: true, chars: doc.text.length }];
}

/**
 * A long page condensed by a tool-less call; on failure the model gets the page's beginning.
 * Either way the source is recorded as read, relevant when what the model was shown kept
 * findings for the topic.
 */
async function presentPage(
  t: ToolContext,
  /** The source's normalised URL: what the stop rules count reads by. */
  sourceKey: string,
  url: string,
  title: string,
  text: string,
  links: readonly string[] = [],
): Promise<string> {
  const { config, signal } = t.deps;
  const base = { url, title, totalChars: text.length, links: links.slice(0, LINKS_SHOWN) };
  const shown = (relevant: boolean) => t.stopRules.recordRead(sourceKey, relevant);
  if (text.length <= config.summarizeOverChars) {
    shown(extractionKeptFindings(t.directive.topic, text));
    return formatPage({ ...base, text, summarised: false, clipped: false });
  }
  try {
    const r = await t.deps.models.text("summarization", {
      instructions: summarizationInstructions({ maxWords: SUMMARY_MAX_WORDS }),
      prompt: summarizationPrompt({
        topic: t.directive.topic,
        url,
        title,
        text: text.slice(0, MAX_SUMMARIZE_INPUT_CHARS),
      }),
      abortSignal: signal,
    });
    if (r.text.trim()) {
      shown(summaryKeptFindings(r.text));
      return formatPage({ ...base, text: r.text.trim(), summarised: true, clipped: false });
    }
  } catch (e) {
    rethrowIfFatal(e, signal);
    // Overflow or a failed call: fall through to the clipped page rather than losing it.
  }
  const clipped = text.slice(0, config.summarizeOverChars);
  shown(extractionKeptFindings(t.directive.topic, clipped));
  return formatPage({
    ...base,
    text: clipped,
    summarised: false,
    clipped: true,
  });
}
