import { useFormatter, useTranslations } from "next-intl";
import { DirectiveCoverageChart, RoundCoverageChart } from "./coverage-chart";
import { type DirectiveCoverageRow, qualityWords, type RoundCoverageRow } from "./coverage-data";

/**
 * Coverage per directive (sources read, by quality, and cited) and per round (the one coverage
 * figure, measured from the sources read): a chart, and the same numbers as a table. The rows carry
 * the API's values as data attributes, so a test can check the chart shows exactly those.
 */
export function CoverageTable({
  directives,
  rounds,
}: {
  directives: DirectiveCoverageRow[];
  rounds: RoundCoverageRow[];
}) {
  const words = useTranslations();
  const t = useTranslations("run.coverage");
  const format = useFormatter();
  const measured = rounds.filter((r) => r.coverage !== null);
  return (
    <div className="space-y-4">
      {directives.length > 0 && (
        <figure className="space-y-2">
          <figcaption className="text-sm font-medium">{t("perDirective")}</figcaption>
          <DirectiveCoverageChart rows={directives} />
          <div className="overflow-x-auto">
            <table className="w-full border-collapse text-left text-xs">
              <caption className="sr-only">{t("perDirective")}</caption>
              <thead>
                <tr className="border-b border-zinc-200 dark:border-zinc-800">
                  <th className="py-1 pr-2">{t("directive")}</th>
                  <th className="py-1 pr-2">{t("read")}</th>
                  <th className="py-1 pr-2">{t("quality")}</th>
                  <th className="py-1 pr-2">{t("websites")}</th>
                  <th className="py-1">{t("cited")}</th>
                </tr>
              </thead>
              <tbody>
                {directives.map((d) => (
                  <tr
                    key={d.directiveId}
                    data-testid="coverage-value"
                    data-directive-id={d.directiveId}
                    data-value={d.read}
                    className="border-b border-zinc-100 align-top dark:border-zinc-900"
                  >
                    <th scope="row" className="py-1 pr-2 font-normal">
                      <span className="font-medium">{d.label}</span>{" "}
                      <span className="text-muted">{d.topic.slice(0, 90)}</span>
                    </th>
                    <td className="py-1 pr-2">
                      {d.seen !== null && d.seen > d.read
                        ? t("ofFound", { read: d.read, seen: d.seen })
                        : d.read}
                    </td>
                    <td className="py-1 pr-2">{qualityWords(d.quality, words)}</td>
                    <td className="py-1 pr-2">{d.domains}</td>
                    <td className="py-1">{d.cited ?? t("notCounted")}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        </figure>
      )}
      {measured.length > 0 && (
        <figure className="space-y-2">
          <figcaption className="text-sm font-medium">
            {t("perRound")} <span className="font-normal text-muted">{t("measured")}</span>
          </figcaption>
          <RoundCoverageChart rows={measured} />
          <table className="w-full border-collapse text-left text-xs">
            <caption className="sr-only">{t("perRound")}</caption>
            <thead>
              <tr className="border-b border-zinc-200 dark:border-zinc-800">
                <th className="py-1 pr-2">{t("round")}</th>
                <th className="py-1 pr-2">{t("coverage")}</th>
                <th className="py-1">{t("newSources")}</th>
              </tr>
            </thead>
            <tbody>
              {measured.map((r) => (
                <tr
                  key={r.round}
                  data-testid="round-coverage-value"
                  data-round={r.round}
                  data-value={r.coverage ?? ""}
                  className="border-b border-zinc-100 dark:border-zinc-900"
                >
                  <th scope="row" className="py-1 pr-2 font-normal">
                    {t("roundN", { round: r.round })}
                  </th>
                  <td className="py-1 pr-2">{format.number(r.coverage ?? 0, { style: "percent" })}</td>
                  <td className="py-1">{r.newSources}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </figure>
      )}
    </div>
  );
}
