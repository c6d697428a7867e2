import type { ReportWords } from "./types.ts";

const topics = (n: number) => `${n} research topic${n === 1 ? "" : "s"}`;
const sources = (n: number) => `${n} source${n === 1 ? "" : "s"}`;

export const en: ReportWords = {
  sources: "Sources",
  readInFull: "read in full",
  partial: "Partial report.",
  writtenEarly: (researched, planned, n) =>
    `Research was stopped early at the owner's request; this report rests on ${researched} of ${topics(planned)} and the ${sources(n)} gathered by then.`,
  emptyReport:
    "The writing model returned an empty report, so this report presents the research findings as gathered.",
  stoppedBeforeReport: (reason) =>
    `The run stopped before the report could be written (${reason}). These are the research findings as gathered.`,
  phaseNames: {
    clarification: "clarifying the question",
    brief: "writing the research brief",
    supervision: "the research",
    synthesis: "writing the report",
    knowledge: "saving what was learned",
  },
  failure: {
    run_time_limit: (v) => `the run went over its time limit of ${v.seconds} s`,
    phase_time_limit: (v) => `${v.phase} went over its time limit of ${v.seconds} s`,
    budget_exhausted: (v) => `its budget ran out: ${v.said}`,
    storage_quota: (v) => `it could store no more page text: ${v.said}`,
    run_error: (v) => `an error: ${v.said}`,
  },
  noFindings: "No research findings could be included.",
  contextOverflow: (leftOut) =>
    "The research material did not fit the writing model's context window even after it was cut down three times, so this report presents the research findings as gathered instead of a written synthesis" +
    (leftOut > 0 ? `; ${leftOut} lower-priority topic${leftOut === 1 ? " is" : "s are"} left out.` : "."),
  questions: "Questions about this report",
  furtherSources: "Further sources of the answers",
};
