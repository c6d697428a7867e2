import { useTranslations } from "next-intl";
import { terminalRunStatuses } from "@/lib/research/ui";
import { directiveCoverageRows, roundCoverageRows } from "./coverage-data";
import { CoverageTable } from "./coverage-table";
import { RoundCard } from "./round-card";
import type { RunViewJson } from "./types";

/** What the supervisor decided each round, and how well each directive and round is covered. */
export function SupervisionPanel({ run }: { run: RunViewJson }) {
  const words = useTranslations();
  const t = useTranslations("run.supervision");
  const history = run.supervisionHistory;
  const directives = directiveCoverageRows(run, words);
  const ended = terminalRunStatuses.includes(run.status);
  return (
    <section aria-label={t("title")} className="space-y-4 text-sm">
      <h2 className="font-medium">{t("title")}</h2>
      {!history.length && !directives.length && <p className="text-muted">{t("none")}</p>}
      <CoverageTable directives={directives} rounds={roundCoverageRows(history)} />
      <ol className="space-y-3">
        {history.map((r) => (
          <li key={r.round}>
            <RoundCard
              round={r}
              directivesInRound={run.directives.filter((d) => d.round === r.round).length}
              runEnded={ended}
            />
          </li>
        ))}
      </ol>
    </section>
  );
}
