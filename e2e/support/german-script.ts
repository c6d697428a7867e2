/**
 * The scripted research run (research-script.ts) with everything the model writes in German — the
 * brief, the plan, the researchers' notes, the findings, the report, the knowledge — so a page
 * check that looks for English words never finds them in the run's own content. The search
 * queries stay English: the local web fixture answers English terms (they are content too).
 */
import type { ScriptedReply, ScriptRule } from "../../test/support/llm-server.ts";
import { call, researchScript } from "./research-script.ts";

export const GERMAN_TOPIC_A =
  "Jahresarbeitszahl von Luft-Wasser-Wärmepumpen bei strengem Frost (unter −10 °C)";
export const GERMAN_TOPIC_B = "Jährliche Betriebskosten eines Gaskessels für ein typisches Einfamilienhaus";
/** The English search queries the researchers send (shown on the run page as the model's words). */
export const SEARCH_QUERIES = ["heat pump cold climate COP", "heat pump gas boiler running costs"];

const text = (t: string): ScriptedReply => ({ kind: "text", text: t });
const json = (value: unknown): ScriptedReply => ({ kind: "json", value });

function researcher(webUrl: string, query: string, slug: string): ScriptedReply[] {
  return [
    call("web_search", { query }),
    call("think", { reflection: "Die Suche hat eine passende Seite gefunden; ich lese sie vollständig." }),
    call("extract_content", { url: `${webUrl}/pages/${slug}.html` }),
    call("think", { reflection: "Die Seite nennt belastbare Zahlen mit klarer Herkunft. Das genügt." }),
    call("research_complete", { summary: "Belastbare Zahlen gefunden." }),
  ];
}

const GERMAN: Record<string, ScriptedReply[]> = {
  brief: [
    text(
      "Ich möchte verstehen, wie sich Luft-Wasser-Wärmepumpen gegenüber Gaskesseln in einem typischen Haus schlagen: ihre Effizienz bei strengem Frost und ihre jährlichen Betriebskosten.",
    ),
  ],
  plan: [
    json({
      question_kind: "comparison",
      compared_elements: ["Wärmepumpe", "Gaskessel"],
      directives: [
        {
          title: "Wärmepumpen bei Frost",
          topic: GERMAN_TOPIC_A,
          perspective: "Technik",
          evidence_needed: "gemessene Jahresarbeitszahlen",
          priority: "high",
        },
        {
          title: "Kosten eines Gaskessels",
          topic: GERMAN_TOPIC_B,
          perspective: "Haushalt",
          evidence_needed: "jährliche Kostenangaben",
          priority: "normal",
        },
      ],
    }),
  ],
  critique: [
    json({
      redundancy: { status: "PASS", note: "verschiedene Themen" },
      coverage: { status: "PASS", note: "Effizienz und Kosten decken die Frage ab" },
      proportionality: { status: "PASS", note: "zwei Themen für einen Vergleich" },
      specificity: { status: "PASS", note: "jedes nennt seine Belege" },
      verdict: "Der Plan ist schlüssig.",
    }),
  ],
  assessment: [
    json({
      overall_coverage: 0.9,
      directive_assessments: [
        { directive: 1, status: "covered", note: "Felddaten gefunden" },
        { directive: 2, status: "covered", note: "Kostenvergleich gefunden" },
      ],
      follow_up_queries: [],
      should_continue: false,
      rationale: "Beide Teile der Frage sind mit belegten Zahlen beantwortet.",
    }),
  ],
  "citation-check": [
    json({
      verdicts: [
        { id: 1, verdict: "supported", reason: "Die Seite nennt diese Zahlen." },
        { id: 2, verdict: "partially_supported", reason: "Die Seite stützt nur einen Teil." },
      ],
    }),
  ],
  knowledge: [
    json({
      items: [
        {
          category: "finding",
          content: "Luft-Wasser-Wärmepumpen für kaltes Klima halten die Leistungszahl auch bei Frost über 2.",
          sources: [1],
          confidence: 0.8,
          needs_review: true,
        },
      ],
    }),
  ],
  compression: [
    text(
      "## Ergebnisse\n\nFeldversuche maßen in kaltem Klima eine Jahresarbeitszahl von etwa 2,5 bis 3 [1].\n\n## Suchen und Werkzeugaufrufe\n\n- web_search, extract_content\n\n## Für die Leitung\n\nAbgedeckt: ja. Zuversicht: mittel. Lücken: keine.",
    ),
  ],
  "supervisor-think": [text("Beide Themen haben belegte Zahlen geliefert; es bleiben keine Lücken.")],
  synthesis: [
    text(
      "## Effizienz bei Frost\n\nModerne Luft-Wasser-Wärmepumpen arbeiten weit unter dem Gefrierpunkt: Feldmessungen zeigen Jahresarbeitszahlen zwischen 2,5 und 3 [1].\n\n" +
        "## Betriebskosten\n\nÜber ein Jahr kostet eine Wärmepumpe im Betrieb meist weniger als ein Gaskessel [2].",
    ),
  ],
  summarize: [text("Eine Zusammenfassung der Seite.")],
};

/**
 * The German run's rules; `hangA` keeps directive A's researcher waiting after its first search, so
 * the run stays in progress until it is cancelled.
 */
export function germanScript(webUrl: string, opts: { hangA?: boolean } = {}): ScriptRule[] {
  const rules = researchScript({ webUrl })
    .filter((r) => r.name && GERMAN[r.name])
    .map((r) => ({ ...r, replies: GERMAN[r.name as string] }));
  const a = researcher(webUrl, SEARCH_QUERIES[0], "cold-climate-heat-pump-performance");
  return [
    ...rules,
    {
      name: "researcher-a",
      match: { tool: "web_search", any: "Jahresarbeitszahl von Luft-Wasser" },
      replies: opts.hangA ? [a[0], { kind: "hang" }] : a,
    },
    {
      name: "researcher-b",
      match: { tool: "web_search", any: "Betriebskosten eines Gaskessels" },
      replies: researcher(webUrl, SEARCH_QUERIES[1], "running-costs-heat-pump-vs-gas-boiler"),
    },
  ];
}
