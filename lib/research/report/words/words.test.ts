import { describe, expect, it } from "vitest";
import { because, runFailureCodes } from "../../because.ts";
import { failedBecause, REPORT_WORDS } from "./index.ts";

describe("the report's words for why a run failed", () => {
  it("say every failure code in every report language, with its values", () => {
    for (const [language, words] of Object.entries(REPORT_WORDS)) {
      for (const code of runFailureCodes) {
        const text = failedBecause(
          words,
          because(code, { phase: "synthesis", seconds: 600, said: "HTTP 503" }),
        );
        expect({ language, code, text }).toMatchObject({ text: expect.stringMatching(/600|HTTP 503/) });
      }
    }
  });

  it("name the phase in the report's language", () => {
    const timeout = because("phase_time_limit", { phase: "synthesis", seconds: 600 });
    expect(failedBecause(REPORT_WORDS.de, timeout)).toBe(
      "das Schreiben des Berichts hat das Zeitlimit von 600 s überschritten",
    );
    expect(failedBecause(REPORT_WORDS.zh, timeout)).toBe("撰写报告超过了 600 秒的时间限制");
    expect(REPORT_WORDS.de.stoppedBeforeReport(failedBecause(REPORT_WORDS.de, timeout))).toMatch(
      /^Der Durchlauf endete, bevor der Bericht geschrieben werden konnte \(das Schreiben des Berichts/,
    );
  });
});
