/**
 * The engine's words, defined once: run statuses and phases, directive priorities, origins and
 * statuses, source quality tiers, citation verdicts and knowledge categories. The database schema
 * (db/schema.ts), the API and the dashboard import these; nothing here imports from them.
 */

export const runStatuses = [
  "queued",
  "running",
  "awaiting_clarification",
  "awaiting_plan_review",
  "completed",
  "failed",
  "cancelled",
] as const;
export type RunStatus = (typeof runStatuses)[number];
export const terminalRunStatuses: readonly RunStatus[] = ["completed", "failed", "cancelled"];

export const runPhases = ["clarification", "brief", "supervision", "synthesis", "knowledge", "done"] as const;
export type RunPhase = (typeof runPhases)[number];

/** Priorities everywhere (supervisor, user steering, plan review): most urgent first. */
export const directivePriorities = ["critical", "high", "normal", "low"] as const;
export type DirectivePriority = (typeof directivePriorities)[number];
/** 0 for `critical` … 3 for `low`: sorting by it puts the most urgent first. */
export function priorityRank(priority: DirectivePriority): number {
  return directivePriorities.indexOf(priority);
}

export const directiveOrigins = ["supervisor", "user"] as const;
export type DirectiveOrigin = (typeof directiveOrigins)[number];

/**
 * Why a directive exists: round 0's plan, a later round's gap, a person steering the run, or
 * (`inherited`) research a parent run already did, copied into a "research deeper" child as prior
 * coverage: done, never executed again, and the topic later plans are checked against for duplicates.
 */
export const directiveTypes = ["initial", "follow-up", "user", "inherited"] as const;
export type DirectiveType = (typeof directiveTypes)[number];

/** Round 0's reading of the question, which fixes how many directives it gets. */
export const questionComplexities = ["simple_factual", "comparison", "typical"] as const;
export type QuestionComplexity = (typeof questionComplexities)[number];

export const directiveStatuses = ["pending", "running", "done", "failed", "skipped"] as const;
export type DirectiveStatus = (typeof directiveStatuses)[number];

export const qualityTiers = ["HIGH", "MEDIUM", "LOW", "UNKNOWN"] as const;
export type QualityTier = (typeof qualityTiers)[number];

export const citationSupports = ["supported", "partially_supported", "unsupported", "unchecked"] as const;
export type CitationSupport = (typeof citationSupports)[number];

export const roundDecisions = ["continue", "stop"] as const;
export type RoundDecision = (typeof roundDecisions)[number];

export const knowledgeCategories = ["finding", "lesson", "domain"] as const;
export type KnowledgeCategory = (typeof knowledgeCategories)[number];

export const knowledgeStatuses = ["provisional", "established", "deprecated"] as const;
export type KnowledgeStatus = (typeof knowledgeStatuses)[number];

export const knowledgeOrigins = ["extracted", "user"] as const;
export type KnowledgeOrigin = (typeof knowledgeOrigins)[number];

/** Steps whose fallback is recorded on the run (degradations.ts). */
export const degradationSteps = ["planner", "coverage_assessment", "citation_check", "knowledge"] as const;
export type DegradationStep = (typeof degradationSteps)[number];

/** Why a model call went on to the next model of its chain (lib/ai/failover.ts decides). */
export { type FailoverReason, failoverReasons } from "../ai/failover-reasons.ts";
