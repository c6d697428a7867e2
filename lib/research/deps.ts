/**
 * Everything the engine needs from outside, passed in as arguments: models, search, fetching,
 * persistence, an event sink, a clock, the run's cancel signal and its configuration.
 * lib/jobs/engine-deps.ts wires the real ones (for the worker and the full-run test harness);
 * unit tests wire mock models (ai/test), local fakes and an in-memory PGlite.
 */
import type { ModelClient } from "../ai/client.ts";
import type { ResearchConfig } from "./config.ts";
import type { EventSink } from "./events.ts";
import type { RunStore } from "./store.ts";
import type { WritesBehind } from "./writes-behind.ts";

/** A search hit as the engine needs it (lib/search's results satisfy this shape). */
export interface EngineSearchResult {
  url: string;
  title: string;
  snippet: string;
  content?: string;
  provider: string;
}

export interface EngineSearchOutcome {
  results: EngineSearchResult[];
  errors: { provider: string; message: string }[];
}

/** A fetched, extracted page (lib/fetch's documents satisfy this shape). */
export interface EngineDocument {
  url: string;
  title: string;
  text: string;
  contentType: string;
  /** The page's absolute links (HTML only): URLs a researcher may follow from it. */
  links?: string[];
}

export interface Clock {
  now(): number;
}

export interface EngineDeps {
  models: ModelClient;
  search(query: string, opts: { maxResults: number; signal?: AbortSignal }): Promise<EngineSearchOutcome>;
  /** Safe fetch + extraction; throws (e.g. a refusal with a reason) when the page cannot be had. */
  fetchDocument(url: string, opts: { signal?: AbortSignal }): Promise<EngineDocument>;
  store: RunStore;
  events: EventSink;
  clock: Clock;
  signal: AbortSignal;
  /**
   * Aborted when the owner asks for the report now (POST /api/runs/:id/finish): research stops,
   * and the run goes on to write its report from what was gathered. Absent: research runs its course.
   */
  gatherSignal?: AbortSignal;
  config: ResearchConfig;
  /**
   * Writes deferred behind the next model call (writes-behind.ts); set by the engine for an
   * attempt, whose store and sink then wait for them. Absent: deferWrite writes at once.
   */
  behind?: WritesBehind;
}

export const systemClock: Clock = { now: () => Date.now() };
