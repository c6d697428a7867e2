/**
 * Every schema the engine sends to a model, under the name it is sent with: the structured outputs
 * (by the name the call gives) and the researcher's tools. Each stays inside what OpenAI (strict), Anthropic and
 * Gemini all accept (docs/ARCHITECTURE.md): every property required, nullable rather than optional, no
 * length, numeric or item-count keywords. What such a keyword would have said is checked or repaired
 * after parsing, by the schema's own transforms. test/provider-schemas.test.ts renders each one as
 * every provider's package sends it and checks it against the providers' documented rules.
 */
import { clarificationSchema } from "./phases/brief.ts";
import { researcherTools } from "./phases/directive/researcher.ts";
import { knowledgeSchema } from "./phases/knowledge.ts";
import { assessmentSchema } from "./phases/supervision/coverage-rounds.ts";
import { critiqueSchema, directivePlanSchema } from "./phases/supervision/round0.ts";
import { verdictSchema } from "./report/support.ts";

export const structuredOutputSchemas = {
  clarification: clarificationSchema,
  directive_plan: directivePlanSchema,
  decomposition_critique: critiqueSchema,
  directive_revision: directivePlanSchema,
  coverage_assessment: assessmentSchema,
  citation_verdicts: verdictSchema,
  knowledge_items: knowledgeSchema,
} as const;

export type StructuredOutputName = keyof typeof structuredOutputSchemas;

export const modelTools = researcherTools;
