/**
 * A report whose citation check ends in known numbers: eleven cited sentences the lexical
 * pre-check cannot settle (they share few words with the fixture pages), a check budget of eight
 * model-judged citations (`maxCitationChecks`), and verdicts for those eight — so the run stores
 * 5 supported, 2 partly supported, 1 unsupported and 3 unchecked (beyond the budget).
 */
import { expect, type Page } from "@playwright/test";
import type { ScriptRule } from "../../test/support/llm-server.ts";
import { roleMatch } from "../../test/support/script-roles.ts";

export const VERDICT_SENTENCES = [
  "Neighbours in terraced streets seldom complained once installers mounted outdoor fans on rubber feet [1].",
  "Several councils ask for an acoustic survey before granting permission [2].",
  "Homeowners who kept radiators oversized reported cosy rooms through January [1].",
  "Landlords weigh the upfront outlay against tenants' monthly bills [2].",
  "Smart thermostats helped households shift demand into cheaper overnight hours [1].",
  "Insurers treat both appliances alike when pricing buildings cover [2].",
  "Some surveyors flag hidden asbestos before any pipework changes begin [1].",
  "Apprenticeship numbers limit how quickly local firms can take on new jobs [2].",
  "Grant schemes changed twice within eighteen months, confusing applicants [1].",
  "Retrofit advisers recommend draught-proofing first, because it pays back fastest [2].",
  "Community energy groups organise bulk purchases that lower quotes for whole streets [1].",
];

/** The run's check budget: the first eight citations go to the model, the last three stay unchecked. */
export const MAX_CITATION_CHECKS = 8;

export const VERDICT_COUNTS = { supported: 5, partially_supported: 2, unsupported: 1, unchecked: 3 };

/** The synthesis writes the eleven sentences; the check judges the first eight (ids in citation order). */
export function verdictRules(delayMs = 0): ScriptRule[] {
  const verdict = (id: number) => (id <= 5 ? "supported" : id <= 7 ? "partially_supported" : "unsupported");
  return [
    {
      name: "synthesis-verdicts",
      match: roleMatch.synthesis,
      replies: [
        {
          kind: "text",
          text: `## What owners and neighbours report\n\n${VERDICT_SENTENCES.slice(0, 6).join(" ")}\n\n## What stands in the way\n\n${VERDICT_SENTENCES.slice(6).join(" ")}\n`,
        },
      ],
      repeat: true,
    },
    {
      name: "citation-check-verdicts",
      match: roleMatch.citationCheck,
      replies: [
        {
          kind: "json",
          delayMs,
          value: {
            verdicts: Array.from({ length: MAX_CITATION_CHECKS }, (_, k) => ({
              id: k + 1,
              verdict: verdict(k + 1),
              reason: `Scripted verdict for citation ${k + 1}.`,
            })),
          },
        },
      ],
      repeat: true,
    },
  ];
}

const WORDS = { partially_supported: "partly", unsupported: "not supported", unchecked: "not checked" };

/**
 * The finished page's verification line shows exactly VERDICT_COUNTS, and each weak count's button
 * visits every marker with that verdict in turn (count distinct markers, then back to the first).
 */
export async function expectVerdictSummary(page: Page): Promise<void> {
  const total = Object.values(VERDICT_COUNTS).reduce((a, b) => a + b, 0);
  const summary = page.getByTestId("citation-check");
  await expect(summary.getByTestId("citations-supported")).toHaveText(
    `✓ ${VERDICT_COUNTS.supported} of ${total} citations supported by their sources`,
  );
  const report = page.getByRole("region", { name: "Report" });
  for (const [verdict, word] of Object.entries(WORDS)) {
    const count = VERDICT_COUNTS[verdict as keyof typeof WORDS];
    await expect(report.locator(`a.cite[data-verdict="${verdict}"]`)).toHaveCount(count);
    const link = summary.locator(`button[data-verdict="${verdict}"]`);
    await expect(link).toHaveText(new RegExp(`${count} ${word}$`));
    const visited: string[] = [];
    for (let k = 0; k <= count; k++) {
      await link.click();
      const focused = page.locator("a.cite:focus");
      await expect(focused).toHaveAttribute("data-verdict", verdict);
      visited.push(
        await focused.evaluate((el) =>
          [...document.querySelectorAll("a.cite")].indexOf(el as HTMLAnchorElement).toString(),
        ),
      );
      await page.keyboard.press("Escape");
    }
    expect(new Set(visited.slice(0, count)).size, `${verdict} markers visited`).toBe(count);
    expect(visited[count], `${verdict} wraps to its first marker`).toBe(visited[0]);
  }
}
