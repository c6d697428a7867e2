import type { RunViewJson } from "./types";

type Coverage = NonNullable<RunViewJson["coverage"]>;

/**
 * How well each directive is covered after the latest round: sources read (and search hits only
 * seen), their domains and quality, and how many the findings cite. Older rounds lack seen/cited.
 */
export function CoverageTable({
  heuristic,
  directives,
}: {
  heuristic: Coverage["heuristic"];
  directives: NonNullable<Coverage["directives"]>;
}) {
  return (
    <table className="w-full border-collapse text-left text-xs">
      <caption className="mb-1 text-left text-muted">
        Coverage
        {heuristic
          ? ` — heuristic confidence ${Math.round(heuristic.confidence * 100)}%${heuristic.sufficient ? " (sufficient)" : ""}`
          : ""}
      </caption>
      <thead>
        <tr className="border-b border-zinc-200 dark:border-zinc-800">
          <th className="py-1 pr-2">Directive</th>
          <th className="py-1 pr-2">Read (seen)</th>
          <th className="py-1 pr-2">Domains</th>
          <th className="py-1 pr-2">Quality (H/M/L/?)</th>
          <th className="py-1">Cited</th>
        </tr>
      </thead>
      <tbody>
        {directives.map((d) => (
          <tr key={d.directiveId} className="border-b border-zinc-100 dark:border-zinc-900">
            <td className="py-1 pr-2">{d.topic.slice(0, 90)}</td>
            <td className="py-1 pr-2">
              {d.sourceCount}
              {d.seenCount === undefined ? "" : ` (${d.seenCount})`}
            </td>
            <td className="py-1 pr-2">{d.uniqueDomains}</td>
            <td className="py-1 pr-2">
              {d.quality.HIGH ?? 0}/{d.quality.MEDIUM ?? 0}/{d.quality.LOW ?? 0}/{d.quality.UNKNOWN ?? 0}
            </td>
            <td className="py-1">{d.citedCount ?? "–"}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
