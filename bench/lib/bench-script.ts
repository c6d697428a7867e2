/**
 * The scripted research run of the run-level benchmarks (modelled on e2e/support/research-script.ts):
 * a rule per role, matched by what the app sends (schema names, system prompts, the tools offered,
 * the directive topic), never by call order. Every researcher — `perRound` in round 0 and in each
 * follow-up round — searches its own query and reads its own page URL (a fixture page with a
 * `?part=` the brief lists, so the URL is readable and every round finds new sources), which lets
 * the benchmark attribute every model call (by rule name) and every web request (by query or URL)
 * to a researcher. The supervisor asks for `perRound` follow-ups in each follow-up round.
 */
import type { ScriptedReply, ScriptRule } from "../../test/support/llm-server.ts";
import { roleMatch } from "../../test/support/script-roles.ts";

export interface BenchResearcher {
  /** "r<round>:d<index>": the rule names' suffix and the web requests' attribution. */
  lane: string;
  round: number;
  topic: string;
  query: string;
  url: string;
}

export interface BenchScript {
  rules: ScriptRule[];
  researchers: BenchResearcher[];
  /** The researcher lane a web request (its path as the fixture logged it) belongs to. */
  laneOfWebPath(path: string): string | undefined;
}

/** Rule names of the calls a run makes one after another (the serial part of the critical path). */
export const SERIAL_RULES = new Set([
  "brief",
  "plan",
  "critique",
  "revision",
  "supervisor-think",
  "assessment",
  "synthesis",
  "citation-check",
  "knowledge",
]);

// Distinct wording per aspect and per round, so no follow-up reads as a duplicate of another topic.
const ASPECTS = [
  "seasonal efficiency in frost",
  "installation price and grants",
  "yearly running bills",
  "carbon emissions per kilowatt hour",
  "outdoor unit noise and siting",
  "radiator sizing for older houses",
  "insulation before replacement",
];
const ANGLES = ["measured field trials", "regional market surveys", "manufacturer datasheets"];
const SLUGS = [
  "heat-pump-efficiency-cop",
  "running-costs-heat-pump-vs-gas-boiler",
  "cold-climate-heat-pump-performance",
  "heating-emissions-comparison",
  "heat-pump-installation-guide",
  "waermepumpe-altbau",
];

const call = (name: string, args: unknown): ScriptedReply => ({
  kind: "tool_calls",
  calls: [{ name, arguments: args }],
});

function researchers(webUrl: string, rounds: number, perRound: number): BenchResearcher[] {
  const out: BenchResearcher[] = [];
  for (let round = 0; round < rounds; round++) {
    for (let i = 0; i < perRound; i++) {
      const aspect = ASPECTS[i % ASPECTS.length];
      const angle = ANGLES[round % ANGLES.length];
      out.push({
        lane: `r${round}:d${i + 1}`,
        round,
        topic: `Heat pumps: ${aspect}, from ${angle}`,
        query: `heat pump ${aspect} ${angle}`,
        url: `${webUrl}/pages/${SLUGS[(round * perRound + i) % SLUGS.length]}.html?part=r${round}d${i + 1}`,
      });
    }
  }
  return out;
}

const draft = (r: BenchResearcher) => ({
  title: r.topic,
  topic: r.topic,
  perspective: "evidence from published figures",
  evidence_needed: "concrete figures with their source",
  priority: "normal",
});

const followUp = (r: BenchResearcher) => ({ ...draft(r), gap: `round ${r.round} needs ${r.topic}` });

function researcherRules(r: BenchResearcher): ScriptRule[] {
  return [
    {
      name: `researcher:${r.lane}`,
      match: { tool: "web_search", any: r.topic },
      replies: [
        call("web_search", { query: r.query }),
        call("think", { reflection: `The search for "${r.query}" found a relevant page; I will read it.` }),
        call("extract_content", { url: r.url }),
        call("think", { reflection: "The page gives concrete figures with a clear source. That is enough." }),
        call("research_complete", { summary: `Found concrete figures on ${r.topic}.` }),
      ],
    },
    {
      name: `compression:${r.lane}`,
      match: { ...roleMatch.compression, any: r.topic },
      replies: [
        {
          kind: "text",
          text: `## Findings\n\nField trials measured a seasonal COP of about 2.5 to 3 in cold climates [1].\n\n## Queries and tool calls made\n\n- web_search, extract_content\n\n## Supervisor brief\n\nCovered: ${r.topic}. Confidence: medium. Gaps: none.`,
        },
      ],
      repeat: true,
    },
  ];
}

const json = (value: unknown): ScriptedReply => ({ kind: "json", value });

function assessment(next: BenchResearcher[]): ScriptedReply {
  return json({
    overall_coverage: next.length ? 0.5 : 0.9,
    directive_assessments: [{ directive: 1, status: next.length ? "partial" : "covered", note: "bench" }],
    follow_up_queries: next.map(followUp),
    should_continue: next.length > 0,
    rationale: next.length ? "More angles are needed." : "Every part is answered with sourced figures.",
  });
}

/**
 * `rounds` rounds in all (round 0 and rounds − 1 follow-up rounds; run with maxSupervisionRounds =
 * rounds − 1), `perRound` researchers in each.
 */
export function benchScript(opts: { webUrl: string; rounds: number; perRound: number }): BenchScript {
  const all = researchers(opts.webUrl, opts.rounds, opts.perRound);
  const inRound = (n: number) => all.filter((r) => r.round === n);
  const plan = { question_kind: "typical", compared_elements: [], directives: inRound(0).map(draft) };
  const brief =
    "I want to know how air-source heat pumps perform and what they cost compared with gas boilers, " +
    `from several angles. Pages worth reading: ${all.map((r) => r.url).join(" ")}`;
  const pass = (note: string) => ({ status: "PASS", note });
  const rules: ScriptRule[] = [
    {
      name: "brief",
      match: roleMatch.brief,
      replies: [{ kind: "text", text: brief }],
      repeat: true,
    },
    { name: "plan", match: roleMatch.plan, replies: [json(plan)], repeat: true },
    {
      name: "critique",
      match: roleMatch.critique,
      // One issue, so the revision (a serial call of every real run that needs one) is made too.
      replies: [
        json({
          redundancy: pass("distinct topics"),
          coverage: pass("the angles cover the question"),
          proportionality: pass("as many directives as researchers"),
          specificity: { status: "ISSUE", note: "name the evidence more precisely" },
          verdict: "Sharpen the evidence each directive needs.",
        }),
      ],
      repeat: true,
    },
    { name: "revision", match: roleMatch.revision, replies: [json(plan)], repeat: true },
    {
      name: "assessment",
      match: roleMatch.assessment,
      replies: [
        ...Array.from({ length: opts.rounds - 1 }, (_, i) => assessment(inRound(i + 1))),
        assessment([]),
      ],
      repeat: true,
    },
    {
      name: "citation-check",
      match: roleMatch.citationCheck,
      replies: [
        json({
          verdicts: [
            { id: 1, verdict: "supported", reason: "The page gives these figures." },
            { id: 2, verdict: "partially_supported", reason: "The page backs only part of it." },
          ],
        }),
      ],
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
              content: "Cold-climate air-source heat pumps keep a COP above 2 well below freezing.",
              sources: [1],
              confidence: 0.8,
              needs_review: true,
            },
          ],
        }),
      ],
      repeat: true,
    },
    ...all.flatMap(researcherRules),
    {
      name: "supervisor-think",
      match: roleMatch.supervisorThink,
      replies: [{ kind: "text", text: "Some angles still lack sourced figures; follow them up." }],
      repeat: true,
    },
    {
      name: "synthesis",
      match: roleMatch.synthesis,
      replies: [
        {
          kind: "text",
          text:
            "## Efficiency in the cold\n\nIn cold weather these heat pumps still deliver roughly two and a half to three units of heat per unit of electricity [1].\n\n" +
            "## Running costs\n\nOver a year a heat pump usually works out cheaper to run than a gas boiler [2].\n",
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
  const byQuery = new Map(all.map((r) => [r.query, r.lane]));
  const byPart = new Map(all.map((r) => [new URL(r.url).searchParams.get("part"), r.lane]));
  return {
    rules,
    researchers: all,
    laneOfWebPath(path) {
      const u = new URL(path, "http://fixture");
      const q = u.searchParams.get("q");
      if (u.pathname === "/search" && q) return byQuery.get(q);
      const part = u.searchParams.get("part");
      return part ? byPart.get(part) : undefined;
    },
  };
}
