/**
 * The research engine's public entry: what the worker, the server and db/ use of it. The engine
 * itself is runResearch (run.ts) with its phases; it reads and writes through the RunStore it is
 * given and reports through an EventSink. The pure parts the UI needs are in ./ui.ts, re-exported
 * here so a server module needs one import.
 */

export { because, type Why } from "./because.ts";
export {
  defaultResearchConfig,
  type ResearchConfig,
  researchConfigSchema,
  researchSettingsSchema,
  resolveResearchConfig,
} from "./config.ts";
export {
  type Clock,
  type EngineDeps,
  type EngineDocument,
  type EngineSearchOutcome,
  type EngineSearchResult,
  systemClock,
} from "./deps.ts";
export { isNotConfigured } from "./errors.ts";
export type { EventOf, EventSink, PlanChange } from "./events.ts";
export { detectLanguage, reportLanguageOf, runReportLanguage } from "./language.ts";
export { modelTools, structuredOutputSchemas } from "./model-schemas.ts";
export { defaultPhases } from "./phases/index.ts";
export { findNearDuplicate } from "./phases/supervision/dedup.ts";
export { directiveTitle } from "./phases/supervision/directive-title.ts";
export { directiveCreatedEvent } from "./phases/supervision/directives.ts";
export type { RunOutcome } from "./phases-contract.ts";
export { answerQuestion, THREAD_CONTEXT } from "./questions/answer.ts";
export { answerFailureBecause, noReportBecause } from "./questions/failure-because.ts";
export { threadSourceNumbers } from "./questions/numbering.ts";
export { excerptWindows } from "./report/support.ts";
export { type RunAbortReason, runResearch } from "./run.ts";
export type {
  CitationRecord,
  DirectiveRecord,
  DirectiveSourceRecord,
  KnowledgeItemInput,
  KnowledgeItemRecord,
  NewDirectiveInput,
  NewSourceInput,
  ResearcherResultRecord,
  RunSnapshot,
  RunStore,
  SourceRecord,
  SupervisionRoundRecord,
} from "./store.ts";
export * from "./ui.ts";
