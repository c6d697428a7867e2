/**
 * What the engine persists, as one interface over a single run. The database implementation is
 * db/research-store.ts; every method is a checkpoint, so a resumed run reads back what was done.
 */

import type { Because } from "./because.ts";
import type { Degradation } from "./degradations.ts";
import type { TerminalEvent } from "./events.ts";
import type {
  CitationSupport,
  DirectiveOrigin,
  DirectivePriority,
  DirectiveStatus,
  DirectiveType,
  KnowledgeCategory,
  KnowledgeOrigin,
  KnowledgeStatus,
  QualityTier,
  RoundDecision,
  RunPhase,
  RunStatus,
} from "./vocabulary.ts";

export type { DirectiveOrigin, DirectivePriority, DirectiveStatus, DirectiveType } from "./vocabulary.ts";

export interface DirectiveRecord {
  id: string;
  ordinal: number;
  round: number;
  topic: string;
  /** The short title shown in lists (plain, at most 80 characters). */
  title: string;
  perspective: string | null;
  evidenceNeeded: string | null;
  priority: DirectivePriority;
  origin: DirectiveOrigin;
  type: DirectiveType;
  rationale: string | null;
  status: DirectiveStatus;
  error: string | null;
}

export interface NewDirectiveInput {
  round: number;
  topic: string;
  /** The planner's title; cleaned and cut on storing, derived from the topic when absent. */
  title?: string | null;
  perspective?: string | null;
  evidenceNeeded?: string | null;
  priority?: DirectivePriority;
  origin?: DirectiveOrigin;
  /** Defaults from origin and round: user, else initial in round 0 and follow-up after it. */
  type?: DirectiveType;
  rationale?: string | null;
}

export interface SourceRecord {
  id: string;
  url: string;
  normalizedUrl: string;
  title: string;
  domain: string;
  provider: string;
  quality: QualityTier;
  snippet: string | null;
  content: string | null;
  /** The page's full text was retrieved (fetched by the app), not only a search hit's text. */
  readInFull?: boolean;
}

/** A source as one directive used it: `read` when its text was read for that directive, not only seen as a hit. */
export interface DirectiveSourceRecord extends SourceRecord {
  read: boolean;
}

export interface NewSourceInput {
  url: string;
  normalizedUrl: string;
  title: string;
  domain: string;
  provider: string;
  quality: QualityTier;
  snippet?: string | null;
  content?: string | null;
}

export interface ResearcherResultRecord {
  directiveId: string;
  messages: unknown[];
  compressedFindings: string | null;
  rawNotes: string | null;
  toolCalls: number;
  stopReason: string | null;
}

export interface SupervisionRoundRecord {
  round: number;
  method: string;
  directivesGenerated: number;
  directivesExecuted: number;
  newSources: number;
  think: string | null;
  assessment: Record<string, unknown> | null;
  coverageBefore: Record<string, unknown> | null;
  coverageAfter: Record<string, unknown> | null;
  decision: RoundDecision | null;
  reason: string | null;
  /** `reason` as a code with its values (absent from rounds decided before codes, and while undecided). */
  because?: Because | null;
}

export interface CitationRecord {
  number: number;
  sourceId: string;
  sentence: string;
  support: CitationSupport;
  /** Why the verdict (how it was reached, or why the citation was left unchecked). */
  reason?: string | null;
  /** The same reason as data, said in the reader's language (absent on citations stored before it). */
  because?: Because | null;
  /** The stored source text the verdict rests on (the excerpt judged). */
  passage?: string | null;
}

export interface KnowledgeItemInput {
  category: KnowledgeCategory;
  content: string;
  sourceIds: string[];
  confidence: number;
  needsReview: boolean;
}

export interface KnowledgeItemRecord extends KnowledgeItemInput {
  id: string;
  status: KnowledgeStatus;
  /** "user": added by the person themselves; "extracted": distilled from an earlier run's report. */
  origin: KnowledgeOrigin;
}

export interface RunSnapshot {
  id: string;
  ownerId: string;
  question: string;
  settings: Record<string, unknown>;
  status: RunStatus;
  phase: RunPhase | null;
  brief: string | null;
  clarificationQuestion: string | null;
  clarificationAnswer: string | null;
  stateVersion: number;
  checkpoint: Record<string, unknown> | null;
}

export interface RunStore {
  readonly runId: string;
  getRun(): Promise<RunSnapshot>;
  /**
   * One write per transition: status, phase and error together, so a reader never sees a phase
   * without its status. Not for the end of a run: that is finishRun.
   */
  setStatus(patch: {
    status: RunStatus;
    phase?: RunPhase;
    error?: string | null;
    /** The checkpoint written with the status (a phase done and the next one started: one write). */
    checkpoint?: Record<string, unknown>;
    stateVersion?: number;
  }): Promise<void>;
  /**
   * Ends the run: the terminal status the event implies (runEndOf) and the terminal event itself,
   * in one transaction, after every event already emitted. Either both are written or neither, so
   * a run is never finished with a stream that does not end. False, writing nothing, when the run
   * had already ended. Nothing is written for the run after it.
   */
  finishRun(event: TerminalEvent): Promise<boolean>;
  /** Stores the clarification question and sets the run awaiting its answer (one write). */
  askClarification(question: string): Promise<void>;
  saveBrief(brief: string): Promise<void>;
  saveCheckpoint(checkpoint: Record<string, unknown>, stateVersion: number): Promise<void>;

  listDirectives(): Promise<DirectiveRecord[]>;
  /** Inserts in order; a topic whose normalised form already exists in the run is returned as a duplicate. */
  addDirectives(
    inputs: NewDirectiveInput[],
  ): Promise<{ created: DirectiveRecord[]; duplicates: { topic: string; duplicateOf: string }[] }>;
  setDirectiveStatus(id: string, status: DirectiveStatus, error?: string | null): Promise<void>;
  /** setDirectiveStatus(id, "running") for several directives, in one write. */
  markDirectivesRunning(ids: readonly string[]): Promise<void>;

  /** One row per normalised URL per run; the directive link is added either way. */
  addSource(directiveId: string, input: NewSourceInput): Promise<{ source: SourceRecord; created: boolean }>;
  /**
   * addSource for several inputs at once (a search's hits), in their order: stored in that order,
   * with one result per input (an input repeating an earlier URL is not created twice).
   */
  addSources(
    directiveId: string,
    inputs: readonly NewSourceInput[],
  ): Promise<{ source: SourceRecord; created: boolean }[]>;
  /**
   * Sets the text snapshot of a source stored without one (a search hit read later). The first
   * snapshot wins: a source that already has content is returned unchanged.
   */
  updateSourceContent(
    sourceId: string,
    content: string,
    title?: string,
    /** The tier re-judged from the text now read (page signals), when it differs from the hit's. */
    quality?: QualityTier,
  ): Promise<SourceRecord | undefined>;
  listSources(): Promise<SourceRecord[]>;
  /** One stored source by its normalised URL (without loading every snapshot of the run). */
  getSourceByUrl(normalizedUrl: string): Promise<SourceRecord | undefined>;
  listDirectiveSources(directiveId: string): Promise<DirectiveSourceRecord[]>;
  /**
   * listDirectiveSources for several directives in one read: every id given has an entry (empty
   * when the directive has no sources), each list in the order listDirectiveSources returns it.
   */
  listSourcesOfDirectives(directiveIds: readonly string[]): Promise<Map<string, DirectiveSourceRecord[]>>;
  /** Records that the directive's researcher read the source's text (links it if needed; idempotent). */
  markSourceRead(directiveId: string, sourceId: string): Promise<void>;
  /**
   * Remembers URL strings admitted for reading beyond the sources' own URLs, exactly as seen — the
   * links on a page read (sourceId: that page), a search result's other spelling of a stored page
   * (sourceId: its row) — so a researcher may read them after a restart too. A string already
   * remembered is a no-op.
   */
  savePageLinks(sourceId: string, urls: readonly string[]): Promise<void>;
  /** Every URL string savePageLinks remembered for this run, as given. */
  listPageLinks(): Promise<string[]>;

  saveResearcherResult(result: ResearcherResultRecord): Promise<void>;
  getResearcherResult(directiveId: string): Promise<ResearcherResultRecord | undefined>;
  listResearcherResults(): Promise<ResearcherResultRecord[]>;

  saveRound(round: SupervisionRoundRecord): Promise<void>;
  listRounds(): Promise<SupervisionRoundRecord[]>;

  saveReport(report: {
    markdown: string;
    partial: boolean;
    citationStats: Record<string, unknown>;
  }): Promise<void>;
  getReport(): Promise<{ markdown: string; partial: boolean } | undefined>;
  saveCitations(citations: CitationRecord[]): Promise<void>;
  /** The report's citations with their verdicts (knowledge weighs its items by them). */
  listCitations(): Promise<CitationRecord[]>;

  /** Established items of the run's owner, newest first (the caller trims to its budget). */
  listEstablishedKnowledge(limit: number): Promise<KnowledgeItemRecord[]>;
  /** Stores the run's extracted items as provisional; an item the run already stored is skipped. */
  saveKnowledgeItems(items: KnowledgeItemInput[]): Promise<void>;
  /** How many knowledge items were extracted from this run and stored (a resumed phase's check). */
  countRunKnowledge(): Promise<number>;

  saveUsage(usage: Record<string, unknown>): Promise<void>;
  /** Records a step's fallback unless the run has one for that step and round; true when added. */
  addDegradation(d: Degradation): Promise<boolean>;
}
