import { useTranslations } from "next-intl";
import type { ActivityEntry } from "./activity-model";
import { researcherNumbers } from "./activity-model";
import { DirectiveCard } from "./directive-card";
import type { RunViewJson } from "./types";

/** Every directive of the run as a card: who researches what, how far it got, what it found. */
export function DirectivesPanel({
  run,
  activity,
  children,
}: {
  run: RunViewJson;
  activity: ActivityEntry[];
  /** Steering (SteerForm) while the run is going. */
  children?: React.ReactNode;
}) {
  const t = useTranslations("run.directives");
  const numbers = researcherNumbers(run.directives);
  const steps = new Map<string, number>();
  for (const e of activity) if (e.directiveId) steps.set(e.directiveId, (steps.get(e.directiveId) ?? 0) + 1);
  return (
    <section aria-labelledby="directives-heading" className="space-y-3">
      <h2 id="directives-heading" className="font-medium">
        {t("title")}
      </h2>
      {run.directives.length === 0 && <p className="text-sm text-muted">{t("none")}</p>}
      <ul className="grid gap-3 sm:grid-cols-2">
        {run.directives.map((d) => (
          <li key={d.id} className="min-w-0">
            <DirectiveCard
              directive={d}
              number={numbers.get(d.id) ?? 0}
              run={run}
              activity={activity}
              steps={steps.get(d.id) ?? 0}
            />
          </li>
        ))}
      </ul>
      {children}
    </section>
  );
}
