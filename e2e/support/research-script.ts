/**
 * A scripted research run for the end-to-end tests: the replies the scripted OpenAI-compatible
 * server gives each role, matched by what the app sends (schema names, system prompts, the tools
 * offered, the directive topic), never by call order — researchers run concurrently.
 */
import type { ScriptedReply, ScriptRule } from "../../test/support/llm-server.ts";
import { roleMatch } from "../../test/support/script-roles.ts";

export const TOPIC_A = "Seasonal efficiency of air-source heat pumps in cold climates (COP below -10 °C)";
export const TOPIC_B =
  "Annual running costs of a gas boiler for a typical home (fuel, servicing, standing charges)";

/** The brief the scripted run writes. */
export const SCRIPT_BRIEF =
  "I want to understand how air-source heat pumps perform against gas boilers for a typical home: their efficiency when it is very cold outside, and what each costs to run over a year.";

/** A scripted reply calling one tool. */
export const call = (name: string, args: unknown): ScriptedReply => ({
  kind: "tool_calls",
  calls: [{ name, arguments: args }],
});

const PASSING_CRITIQUE = {
  redundancy: { status: "PASS", note: "distinct topics" },
  coverage: { status: "PASS", note: "efficiency and cost cover the question" },
  proportionality: { status: "PASS", note: "two directives for a two-part comparison" },
  specificity: { status: "PASS", note: "each names its evidence" },
  verdict: "The plan is sound.",
};
const SPECIFICITY_ISSUE = { status: "ISSUE", note: "name the climate and the evidence more precisely" };

export interface ScriptOptions {
  webUrl: string;
  /** Replace directive A's researcher replies after its first search, e.g. with a hang. */
  researcherA?: ScriptedReply[];
  /** The same for directive B. */
  researcherB?: ScriptedReply[];
  /** Leave directive A's researcher unscripted (a test that proves it is not researched again). */
  omitA?: boolean;
  /** Delay each researcher step, to give a test time to act mid-research. */
  stepDelayMs?: number;
  /** Tokens each compression reply reports using (to exhaust a run's budget on purpose). */
  compressionTokens?: number;
  /** Replace the knowledge extraction's items (the default is one finding resting on source [1]). */
  knowledgeItems?: KnowledgeReplyItem[];
  /**
   * Hold directive B's first search this long, so directive A's pages are stored first and its
   * cold-climate page is source [1] (the researchers otherwise race for the first numbers).
   */
  startBAfterMs?: number;
}

export interface KnowledgeReplyItem {
  category: "finding" | "lesson" | "domain";
  content: string;
  sources: number[];
  confidence: number;
  needs_review: boolean;
}

export function researchScript(opts: ScriptOptions): ScriptRule[] {
  const page = (slug: string) => `${opts.webUrl}/pages/${slug}.html`;
  const delay = (r: ScriptedReply): ScriptedReply =>
    opts.stepDelayMs ? { ...r, delayMs: opts.stepDelayMs } : r;
  const researcher = (search: string, slug: string): ScriptedReply[] =>
    [
      call("web_search", { query: search }),
      call("think", { reflection: `The search for "${search}" found a relevant page; I will read it.` }),
      call("extract_content", { url: page(slug) }),
      call("think", { reflection: "The page gives concrete figures with a clear source. That is enough." }),
      call("research_complete", { summary: `Found concrete figures on ${search}.` }),
    ].map(delay);

  return [
    {
      name: "brief",
      match: roleMatch.brief,
      replies: [
        {
          kind: "text",
          text: SCRIPT_BRIEF,
        },
      ],
      repeat: true,
    },
    {
      name: "plan",
      match: roleMatch.plan,
      replies: [
        {
          kind: "json",
          value: {
            question_kind: "comparison",
            compared_elements: ["heat pump", "gas boiler"],
            directives: [
              {
                // Markup and length the page must not show: cleaned and cut on storing.
                title: "**Cold-climate heat pump efficiency**",
                topic: TOPIC_A,
                perspective: "engineering",
                evidence_needed: "measured COP/SCOP data",
                priority: "high",
              },
              {
                title: "Gas boiler running costs",
                topic: TOPIC_B,
                perspective: "household economics",
                evidence_needed: "annual cost figures",
                priority: "normal",
              },
            ],
          },
        },
      ],
      repeat: true,
    },
    {
      name: "critique",
      match: roleMatch.critique,
      replies: [
        {
          kind: "json",
          value: PASSING_CRITIQUE,
        },
      ],
      repeat: true,
    },
    {
      name: "assessment",
      match: roleMatch.assessment,
      replies: [
        {
          kind: "json",
          value: {
            overall_coverage: 0.9,
            directive_assessments: [
              { directive: 1, status: "covered", note: "field data found" },
              { directive: 2, status: "covered", note: "cost comparison found" },
            ],
            follow_up_queries: [],
            should_continue: false,
            rationale: "Both parts of the question are answered with sourced figures.",
          },
        },
      ],
      repeat: true,
    },
    {
      name: "citation-check",
      match: roleMatch.citationCheck,
      // Items the lexical pre-check could not settle: the first is backed, a second only in part.
      replies: [
        {
          kind: "json",
          value: {
            verdicts: [
              { id: 1, verdict: "supported", reason: "The page gives these figures." },
              { id: 2, verdict: "partially_supported", reason: "The page backs only part of it." },
            ],
          },
        },
      ],
      repeat: true,
    },
    {
      name: "knowledge",
      match: roleMatch.knowledge,
      replies: [
        {
          kind: "json",
          value: {
            items: opts.knowledgeItems ?? [
              {
                category: "finding",
                content: "Cold-climate air-source heat pumps keep a COP above 2 well below freezing.",
                sources: [1],
                confidence: 0.8,
                needs_review: true,
              },
            ],
          },
        },
      ],
      repeat: true,
    },
    ...(opts.omitA
      ? []
      : [
          {
            name: "researcher-a",
            match: { tool: "web_search", any: "Seasonal efficiency of air-source" },
            replies: opts.researcherA
              ? [call("web_search", { query: "heat pump cold climate COP" }), ...opts.researcherA]
              : researcher("heat pump cold climate COP", "cold-climate-heat-pump-performance"),
          },
        ]),
    {
      name: "researcher-b",
      match: { tool: "web_search", any: "Annual running costs of a gas boiler" },
      replies: held(
        opts.researcherB
          ? [call("web_search", { query: "heat pump gas boiler running costs" }), ...opts.researcherB]
          : researcher("heat pump gas boiler running costs", "running-costs-heat-pump-vs-gas-boiler"),
        opts.startBAfterMs,
      ),
    },
    {
      name: "compression",
      match: roleMatch.compression,
      replies: [
        {
          ...(opts.compressionTokens
            ? { usage: { prompt_tokens: opts.compressionTokens, completion_tokens: 100 } }
            : {}),
          kind: "text",
          text: "## Findings\n\nField trials measured a seasonal COP of about 2.5 to 3 in cold climates [1].\n\n## Queries and tool calls made\n\n- web_search, extract_content\n\n## Supervisor brief\n\nCovered: yes. Confidence: medium. Gaps: none.",
        },
      ],
      repeat: true,
    },
    {
      name: "supervisor-think",
      match: roleMatch.supervisorThink,
      replies: [{ kind: "text", text: "Both directives returned sourced figures; no gaps remain." }],
      repeat: true,
    },
    {
      name: "synthesis",
      match: roleMatch.synthesis,
      replies: [
        {
          kind: "text",
          text:
            "## Efficiency in the cold\n\nModern air-source heat pumps keep working far below freezing: field data show seasonal COP values between 2.5 and 3 [1]. " +
            "A figure nobody can check [9].\n\n## Running costs\n\nOver a year a heat pump usually costs less to run than a gas boiler [2], " +
            "according to [a blog we never read](https://unknown.example/blog).\n\n" +
            'Raw HTML from a page must stay inert: <img src="x" onerror="window.__xss = 1"> <script>window.__xss = 2</script>\n\n' +
            "## References\n\n[1] Something the model invented\n",
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

/**
 * A provider that refuses every structured output, as OpenAI answers a model without json_schema
 * support: each schema name gets a 400. The plan falls back to the brief as one directive, so the
 * rules include that directive's researcher (it reads both pages); put them before the script's.
 */
export function refusingStructuredOutputs(webUrl: string): ScriptRule[] {
  const schemas = Object.values(roleMatch).flatMap((m) => ("schema" in m ? [m.schema] : []));
  const refusals: ScriptRule[] = schemas.map((schema) => ({
    name: `refuse-${schema}`,
    match: { schema },
    replies: [{ kind: "error", status: 400, body: { error: STRUCTURED_REFUSAL } }],
    repeat: true,
  }));
  const page = (slug: string) => `${webUrl}/pages/${slug}.html`;
  return [
    ...refusals,
    {
      name: "researcher-brief",
      match: { tool: "web_search", any: "I want to understand how air-source heat pumps" },
      replies: [
        call("web_search", { query: "heat pump gas boiler running costs cold climate COP" }),
        call("think", { reflection: "Two pages answer both halves; I will read them." }),
        call("extract_content", { url: page("cold-climate-heat-pump-performance") }),
        call("think", { reflection: "Efficiency is covered; now the running costs." }),
        call("extract_content", { url: page("running-costs-heat-pump-vs-gas-boiler") }),
        call("think", { reflection: "Both pages give sourced figures. That is enough." }),
        call("research_complete", { summary: "Found efficiency and running-cost figures." }),
      ],
    },
  ];
}

/** Replies with the first one held `ms` longer. */
function held(replies: ScriptedReply[], ms: number | undefined): ScriptedReply[] {
  if (!ms) return replies;
  const [first, ...rest] = replies;
  return [{ ...first, delayMs: (first.delayMs ?? 0) + ms }, ...rest];
}

export const STRUCTURED_REFUSAL = {
  message: "Invalid parameter: 'response_format' of type 'json_schema' is not supported with this model.",
  type: "invalid_request_error",
  param: "response_format",
  code: null,
};

/** The clarifier asks one question (climate) before any research: for clarification and its form. */
export const clarificationRule: ScriptRule = {
  name: "clarify",
  match: roleMatch.clarification,
  replies: [
    {
      kind: "json",
      value: {
        needs_clarification: true,
        question: "Which climate should the comparison assume: mild or cold winters?",
        reason: "Heat pump efficiency depends on outdoor temperature.",
      },
    },
  ],
  repeat: true,
};

/**
 * A run that asks for every structured output the app has: the clarifier (no question needed), a
 * critique that finds an issue, so the plan is revised (to the same two directives, which the
 * researchers' rules recognise), then the whole research script.
 */
export function everySchemaScript(opts: ScriptOptions): ScriptRule[] {
  const rules = researchScript(opts);
  const plan = rules.find((r) => r.name === "plan")!.replies;
  return [
    {
      name: "clarify-not-needed",
      match: roleMatch.clarification,
      replies: [
        {
          kind: "json",
          value: { needs_clarification: false, question: "", reason: "The question is clear." },
        },
      ],
      repeat: true,
    },
    {
      name: "critique-issue",
      match: roleMatch.critique,
      replies: [
        {
          kind: "json",
          value: { ...PASSING_CRITIQUE, specificity: SPECIFICITY_ISSUE, verdict: "Sharpen the evidence." },
        },
      ],
      repeat: true,
    },
    { name: "revision", match: roleMatch.revision, replies: plan, repeat: true },
    ...rules,
  ];
}

/** The new topic a "research deeper" child plans beside a repeat of the parent's TOPIC_B. */
export const TOPIC_C =
  "Carbon emissions of heating a home with a heat pump versus a gas boiler on today's electricity grids";

/**
 * A "research deeper" child of a run of researchScript: its plan repeats the parent's TOPIC_B (to
 * be dropped as a duplicate) and adds TOPIC_C, whose researcher reads one page the parent did not;
 * the report cites source [1] (a parent's page) and `newSource` (that new page). The child has the
 * parent's brief, so no brief is written.
 */
export function deeperScript(opts: { webUrl: string; newSource: number }): ScriptRule[] {
  const parent = researchScript({ webUrl: opts.webUrl });
  const keep = [
    "critique",
    "assessment",
    "citation-check",
    "knowledge",
    "compression",
    "supervisor-think",
    "summarize",
  ];
  const draft = (title: string, topic: string) => ({
    title,
    topic,
    perspective: "household economics",
    evidence_needed: "figures with their year",
    priority: "normal",
  });
  return [
    {
      name: "deeper-plan",
      match: roleMatch.plan,
      replies: [
        {
          kind: "json",
          value: {
            question_kind: "typical",
            compared_elements: [],
            directives: [draft("Gas boiler running costs", TOPIC_B), draft("Heating emissions", TOPIC_C)],
          },
        },
      ],
      repeat: true,
    },
    {
      name: "researcher-c",
      match: { tool: "web_search", any: "Carbon emissions of heating a home" },
      replies: [
        call("web_search", { query: "carbon emissions home heating heat pumps gas boilers" }),
        call("think", { reflection: "One page compares the emissions directly; I will read it." }),
        call("extract_content", { url: `${opts.webUrl}/pages/heating-emissions-comparison.html` }),
        call("think", { reflection: "It gives grams of CO2 per kWh of heat for both. That is enough." }),
        call("research_complete", { summary: "Found emissions per kWh of heat for both systems." }),
      ],
    },
    {
      name: "deeper-synthesis",
      match: roleMatch.synthesis,
      replies: [
        {
          kind: "text",
          text:
            "## Efficiency\n\nField data show seasonal COP values between 2.5 and 3 in cold climates [1].\n\n" +
            "## Emissions\n\nWith grid electricity at 400 grams of CO2 per kWh, a heat pump causes about 133 grams of CO2 per kilowatt-hour of heat, around 40 percent less than a gas boiler " +
            `[${opts.newSource}].\n`,
        },
      ],
      repeat: true,
    },
    ...parent.filter((r) => keep.includes(r.name ?? "")),
  ];
}

/** The figure researchScript's report gives for cold-climate seasonal COP, and the one a refresh finds instead. */
export const COP_BEFORE = "between 2.5 and 3";
export const COP_AFTER = "between 2.2 and 3";

/**
 * The report a refresh of a researchScript run writes once the web changed under it: the cold-climate
 * page (source [1]) now gives the lower figure, and the running-costs page it cited is gone, so the
 * seasonal COP claim has the new figure and the running-cost claim is left out. The uncheckable
 * marker stays as before (whatever the citation check makes of it, it is the same in both versions).
 */
export const REFRESHED_REPORT =
  `## Efficiency in the cold\n\nModern air-source heat pumps keep working far below freezing: field data show seasonal COP values ${COP_AFTER} [1]. ` +
  "A figure nobody can check [9].\n\n## Running costs\n\nThe running-cost comparison cited before is no longer online, so this version gives no running-cost figure.\n";

/** researchScript for a refresh: the same roles, with REFRESHED_REPORT as the report. */
export function refreshedScript(opts: ScriptOptions): ScriptRule[] {
  return researchScript(opts).map((rule) =>
    rule.name === "synthesis"
      ? { ...rule, name: "refreshed-synthesis", replies: [{ kind: "text", text: REFRESHED_REPORT }] }
      : rule,
  );
}
