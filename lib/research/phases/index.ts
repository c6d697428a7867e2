/** The real phases, wired for the orchestrator (run.ts takes them as an argument so tests can swap them). */

import type { Phases } from "../phases-contract.ts";
import { writePartialReport, writeReport } from "../report/synthesis.ts";
import { clarify, writeBrief } from "./brief.ts";
import { executeDirective } from "./directive/execute.ts";
import { extractKnowledge } from "./knowledge.ts";
import { planFirstRound, runSupervision } from "./supervision/supervise.ts";

export const defaultPhases: Phases = {
  clarify,
  writeBrief,
  runSupervision,
  planFirstRound,
  executeDirective,
  writeReport,
  writePartialReport,
  extractKnowledge,
};
