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
  failedBecause: ({ code, values = {} }) => {
    const phases: Record<string, string> = {
      clarification: "clarifying the question",
      brief: "writing the research brief",
      supervision: "the research",
      synthesis: "writing the report",
      knowledge: "saving what was learned",
    };
    switch (code) {
      case "run_time_limit":
        return `the run went over its time limit of ${values.seconds} s`;
      case "phase_time_limit":
        return `${phases[values.phase] ?? values.phase} went over its time limit of ${values.seconds} s`;
      case "budget_exhausted":
        return `its budget ran out: ${values.said}`;
      case "storage_quota":
        return `it could store no more page text: ${values.said}`;
      case "run_error":
        return `an error: ${values.said}`;
    }
  },
  noFindings: "No research findings could be included.",
  contextOverflow: (leftOut) =>
    "The research material did not fit the writing model's context window even after it was cut down three times, so this report presents the research findings as gathered instead of a written synthesis" +
    (leftOut > 0 ? `; ${leftOut} lower-priority topic${leftOut === 1 ? " is" : "s are"} left out.` : "."),
  questions: "Questions about this report",
  furtherSources: "Further sources of the answers",
};
