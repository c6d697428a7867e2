/** The run as the dashboard receives it: the server's RunView over JSON, with its JSON columns typed. */
import type { CoverageReport, ReportCitationStats } from "@/lib/research/ui";
import type { RunView } from "@/lib/server/runs/view-model";
import type { Jsonified } from "../jsonified";

/**
 * The view stores coverage and citation stats as JSON columns (Record<string, unknown>); these are the
 * engine's shapes written into them. Partial, because a round written by an older version may lack a field.
 */
export type RunViewJson = Omit<Jsonified<RunView>, "coverage" | "citationStats"> & {
  coverage: Partial<CoverageReport> | null;
  citationStats: Partial<ReportCitationStats> | null;
};

export type DirectiveView = RunViewJson["directives"][number];
export type SourceView = RunViewJson["sources"][number];
export type SupervisionRoundView = RunViewJson["supervisionHistory"][number];
