/**
 * How the scripted model server recognises each of the app's model calls: by the system prompt's
 * opening words or the structured output's schema name. One place for them, so the e2e and bench
 * scripts follow the app's prompts together.
 */
export const roleMatch = {
  brief: { system: "You turn a research request into a research brief" },
  clarification: { schema: "clarification" },
  plan: { schema: "directive_plan" },
  critique: { schema: "decomposition_critique" },
  revision: { schema: "directive_revision" },
  supervisorThink: { system: "You are the supervisor of a research team" },
  assessment: { schema: "coverage_assessment" },
  compression: { system: "You turn a researcher's working transcript into its findings" },
  summarize: { system: "You condense one web page" },
  synthesis: { system: "You write the final report of a research project" },
  question: { system: "You answer a follow-up question about a research report" },
  citationCheck: { schema: "citation_verdicts" },
  knowledge: { schema: "knowledge_items" },
} as const;
