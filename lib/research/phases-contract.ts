/**
 * What the run's driver (run.ts) needs of its phases, and the outcomes it ends in. The real phases
 * are wired in phases/index.ts; tests of the driver pass their own.
 */
import type { Because, RunFailureCode } from "./because.ts";
import type { EngineDeps } from "./deps.ts";
import type { DirectiveOutcome } from "./phases/directive/execute.ts";
import type { ResearcherContext } from "./phases/directive/researcher.ts";
import type { ExecuteDirective } from "./phases/supervision/execution.ts";
import type { GatheredResearch } from "./phases/supervision/supervise.ts";
import type { ReportInput } from "./report/synthesis.ts";
import type { DirectiveRecord, KnowledgeItemRecord, SourceRecord } from "./store.ts";

export interface Phases {
  clarify(deps: EngineDeps, input: { question: string }): Promise<{ needed: boolean; question?: string }>;
  writeBrief(
    deps: EngineDeps,
    input: {
      question: string;
      clarificationQuestion?: string;
      clarificationAnswer?: string;
      knowledge: KnowledgeItemRecord[];
    },
  ): Promise<string>;
  runSupervision(
    deps: EngineDeps,
    input: {
      brief: string;
      executeDirective: ExecuteDirective;
      knowledge: KnowledgeItemRecord[];
    },
  ): Promise<{ rounds: number; stopReason: string; gathered?: GatheredResearch }>;
  /** Round 0 only (plan, critique, revise), stored without executing: what plan review shows. */
  planFirstRound(
    deps: EngineDeps,
    input: { brief: string; knowledge: KnowledgeItemRecord[] },
  ): Promise<unknown>;
  executeDirective(
    deps: EngineDeps,
    directive: DirectiveRecord,
    ctx: ResearcherContext,
  ): Promise<DirectiveOutcome>;
  writeReport(deps: EngineDeps, input: ReportInput): Promise<{ markdown: string; partial: boolean }>;
  /** A report from what was gathered, written without a model; used when the run cannot finish. */
  writePartialReport(
    deps: EngineDeps,
    input: Omit<ReportInput, "brief" | "directiveSources" | "writtenEarly"> & {
      reason: string;
      because?: Because<RunFailureCode>;
    },
  ): Promise<{ markdown: string } | undefined>;
  extractKnowledge(
    deps: EngineDeps,
    input: { question: string; report: string; sources: SourceRecord[] },
  ): Promise<number>;
}

export type RunOutcome =
  | { status: "completed"; partial: boolean }
  | { status: "failed"; reason: string; partial: boolean }
  | { status: "cancelled" }
  | { status: "awaiting_clarification"; question: string }
  | { status: "awaiting_plan_review"; directives: number }
  | { status: "interrupted" };
