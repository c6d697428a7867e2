// The newer report with its changed and added claims marked, rendered for real (react-markdown
// through react-dom/server): the blocks holding them carry data-change, nothing else does, and no
// HTML from the Markdown gets through.
import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { englishReportNames } from "../../test/support/intl.ts";
import { markdownTree } from "../markdown.tsx";
import { type ChangeKind, remarkChangeMarks } from "./remark-change-marks.ts";

const labels = { changed: "Changed claim", added: "Added claim" };

function render(markdown: string, claims: { text: string; kind: ChangeKind }[]): string {
  return renderToStaticMarkup(
    markdownTree({
      children: markdown,
      names: englishReportNames(),
      remarkPlugins: [[remarkChangeMarks, { claims, labels }]],
    }) as never,
  );
}

const REPORT = `## Overview

Heat pumps keep **most** of their efficiency well below freezing [1].

In the 2023 field study, emissions fell by 45 percent after the switch [1][2]. Costs vary by country [2].

- Backup heat is rarely needed [3].
- A new survey found installers matter most [3].

| Climate | COP |
| --- | --- |
| Cold | 2.5 [2] |

<mark>raw</mark> text stays text.

## Sources

[1] [Guide](https://energy.example/guide)
`;

describe("change marks in the newer report", () => {
  it("marks the blocks holding a changed or an added claim, and only those", () => {
    const html = render(REPORT, [
      { text: "In the 2023 field study, emissions fell by 45 percent after the switch.", kind: "changed" },
      { text: "A new survey found installers matter most.", kind: "added" },
      { text: "2.5", kind: "changed" },
    ]);
    expect(html).toContain('<p data-change="changed" title="Changed claim">In the 2023 field study');
    expect(html).toMatch(
      /<li><p data-change="added" title="Added claim">A new survey|<li data-change|data-change="added" title="Added claim">A new survey/,
    );
    expect(html).toMatch(/<td data-change="changed" title="Changed claim">2.5/);
    expect(html.match(/data-change=/g)).toHaveLength(3);
    expect(html).not.toContain("<mark>");
  });

  it("finds a claim across emphasis and citation markers", () => {
    const html = render(REPORT, [
      { text: "Heat pumps keep most of their efficiency well below freezing.", kind: "changed" },
    ]);
    expect(html).toContain(
      'data-change="changed" title="Changed claim">Heat pumps keep <strong>most</strong>',
    );
  });

  it("marks nothing without claims, or for a claim the report does not hold", () => {
    expect(render(REPORT, [])).not.toContain("data-change");
    expect(render(REPORT, [{ text: "Heat pumps are made of cheese.", kind: "added" }])).not.toContain(
      "data-change",
    );
  });

  it("does not crash on Chinese text", () => {
    const html = render("热泵在零下十五度时仍保持80%的输出功率 [1]。\n", [
      { text: "热泵在零下十五度时仍保持80%的输出功率。", kind: "changed" },
    ]);
    expect(html).toContain('data-change="changed"');
  });
});
