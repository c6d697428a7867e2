import { CoverageTable } from "./coverage-table";
import type { RunViewJson, SupervisionRoundView } from "./types";

/** What the supervisor decided each round and how well each directive is covered (the steering view). */
export function SupervisionPanel({
  history,
  coverage,
}: {
  history: SupervisionRoundView[];
  coverage: RunViewJson["coverage"];
}) {
  if (!history.length && !coverage?.directives?.length) return null;
  return (
    <section aria-label="Supervision" className="space-y-3 text-sm">
      <h2 className="font-medium">Supervision</h2>
      {coverage?.directives?.length ? (
        <CoverageTable heuristic={coverage.heuristic} directives={coverage.directives} />
      ) : null}
      <ol className="space-y-1 text-xs text-muted">
        {history.map((r) => (
          <li key={r.round}>
            Round {r.round} ({r.method}): {r.directivesExecuted} directives, {r.newSources} new sources
            {r.decision ? ` — ${r.decision}: ${r.reason ?? ""}` : ""}
          </li>
        ))}
      </ol>
    </section>
  );
}
