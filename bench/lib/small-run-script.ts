/**
 * A compact scripted research run for the scale benchmarks (fan-out, concurrent runs, scale-out):
 * two directives, no follow-up rounds, about a dozen model calls. Modelled on
 * e2e/support/research-script.ts, but every rule repeats and the researcher's replies are chosen
 * from what its own transcript already holds, never from call order, so any number of runs (and
 * their concurrent researchers) can share one script.
 */
import type { ScriptedReply, ScriptRule } from "../../test/support/llm-server.ts";
import { roleMatch } from "../../test/support/script-roles.ts";

const call = (name: string, args: unknown): ScriptedReply => ({
  kind: "tool_calls",
  calls: [{ name, arguments: args }],
});

/** Words only this script writes, so a researcher's transcript says how far it has got. */
const REFLECTED_ON_SEARCH = "bench-reflection-after-search";
const REFLECTED_ON_READ = "bench-reflection-after-read";
/** How the OpenAI-compatible request carries an earlier extract_content call (JSON-encoded). */
const READ_CALL = '"name":"extract_content"';

export interface SmallRunOptions {
  webUrl: string;
  /** Extra delay of the first call of every run (the brief), e.g. so viewers connect first. */
  briefDelayMs?: number;
}

/** The settings a small run is started with (no follow-up rounds). */
export const SMALL_RUN_SETTINGS = { maxSupervisionRounds: 0 } as const;

const json = (value: unknown): ScriptedReply => ({ kind: "json", value });

export function smallRunScript(opts: SmallRunOptions): ScriptRule[] {
  const page = `${opts.webUrl}/pages/cold-climate-heat-pump-performance.html`;
  const researcher = { tool: "web_search" };
  return [
    {
      name: "brief",
      match: roleMatch.brief,
      replies: [
        {
          kind: "text",
          text: "How do air-source heat pumps compare with gas boilers for a typical home: cold-weather efficiency and yearly running cost.",
          ...(opts.briefDelayMs ? { delayMs: opts.briefDelayMs } : {}),
        },
      ],
      repeat: true,
    },
    {
      name: "plan",
      match: roleMatch.plan,
      replies: [
        json({
          question_kind: "comparison",
          compared_elements: ["heat pump", "gas boiler"],
          directives: [
            {
              title: "Heat pump efficiency below freezing",
              topic: "Heat pump efficiency below freezing",
              perspective: "engineering",
              evidence_needed: "measured seasonal COP",
              priority: "high",
            },
            {
              title: "Running costs: heat pump and gas boiler",
              topic: "Yearly running costs of heat pumps and gas boilers",
              perspective: "household economics",
              evidence_needed: "annual cost figures",
              priority: "normal",
            },
          ],
        }),
      ],
      repeat: true,
    },
    {
      name: "critique",
      match: roleMatch.critique,
      replies: [
        json({
          redundancy: { status: "PASS", note: "distinct" },
          coverage: { status: "PASS", note: "covers the question" },
          proportionality: { status: "PASS", note: "two parts, two directives" },
          specificity: { status: "PASS", note: "evidence named" },
          verdict: "Sound.",
        }),
      ],
      repeat: true,
    },
    {
      name: "assessment",
      match: roleMatch.assessment,
      replies: [
        json({
          overall_coverage: 0.9,
          directive_assessments: [
            { directive: 1, status: "covered", note: "found" },
            { directive: 2, status: "covered", note: "found" },
          ],
          follow_up_queries: [],
          should_continue: false,
          rationale: "Both parts answered.",
        }),
      ],
      repeat: true,
    },
    {
      name: "citation-check",
      match: roleMatch.citationCheck,
      replies: [json({ verdicts: [{ id: 1, verdict: "supported", reason: "The page gives it." }] })],
      repeat: true,
    },
    {
      name: "knowledge",
      match: roleMatch.knowledge,
      replies: [
        json({
          items: [
            {
              category: "finding",
              content: "Cold-climate heat pumps keep a COP above 2 below freezing.",
              sources: [1],
              confidence: 0.8,
              needs_review: true,
            },
          ],
        }),
      ],
      repeat: true,
    },
    // Researcher: search → reflect → read → reflect → complete. Latest stage first (first match wins).
    {
      name: "researcher-complete",
      match: { ...researcher, any: REFLECTED_ON_READ },
      replies: [call("research_complete", { summary: "Found sourced figures." })],
      repeat: true,
    },
    {
      name: "researcher-reflect-read",
      match: { ...researcher, any: READ_CALL },
      replies: [call("think", { reflection: `${REFLECTED_ON_READ}: the page has figures; enough.` })],
      repeat: true,
    },
    {
      name: "researcher-read",
      match: { ...researcher, any: REFLECTED_ON_SEARCH },
      replies: [call("extract_content", { url: page })],
      repeat: true,
    },
    {
      name: "researcher-reflect-search",
      match: { ...researcher, any: '"name":"web_search"' },
      replies: [call("think", { reflection: `${REFLECTED_ON_SEARCH}: one result looks relevant.` })],
      repeat: true,
    },
    {
      name: "researcher-search",
      match: researcher,
      replies: [call("web_search", { query: "heat pump cold climate COP running costs" })],
      repeat: true,
    },
    {
      name: "compression",
      match: roleMatch.compression,
      replies: [
        {
          kind: "text",
          text: "## Findings\n\nField trials measured a seasonal COP of about 2.5 to 3 in cold climates [1].\n\n## Queries and tool calls made\n\n- web_search, extract_content\n\n## Supervisor brief\n\nCovered: yes. Confidence: medium. Gaps: none.",
        },
      ],
      repeat: true,
    },
    {
      name: "supervisor-think",
      match: roleMatch.supervisorThink,
      replies: [{ kind: "text", text: "Both directives returned sourced figures." }],
      repeat: true,
    },
    {
      name: "synthesis",
      match: roleMatch.synthesis,
      replies: [
        {
          kind: "text",
          text: "## Efficiency in the cold\n\nAir-source heat pumps keep a seasonal COP between 2.5 and 3 in cold climates [1].\n\n## Running costs\n\nA heat pump usually costs less to run than a gas boiler [1].\n",
        },
      ],
      repeat: true,
    },
    {
      name: "summarize",
      match: roleMatch.summarize,
      replies: [{ kind: "text", text: "A summary of the page." }],
      repeat: true,
    },
  ];
}
