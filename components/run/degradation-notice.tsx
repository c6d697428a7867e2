import { useTranslations } from "next-intl";
import { degradationText } from "./degradation-text";
import type { RunViewJson } from "./types";

/**
 * The steps of a run that fell back instead of doing their work (a plan of one directive, a
 * heuristic coverage judgement, unchecked citations, no knowledge), each in one plain sentence with
 * the model and what its provider said (in the provider's words), so a finished run never looks
 * better than it was.
 */
export function DegradationNotice({ degradations }: { degradations: RunViewJson["degradations"] }) {
  const t = useTranslations("run.degraded");
  const words = useTranslations();
  if (!degradations.length) return null;
  return (
    <section
      aria-label={t("label")}
      data-testid="degradations"
      className="space-y-1 rounded-lg border border-amber-300 bg-amber-50 p-3 text-sm dark:border-amber-800 dark:bg-amber-950"
    >
      <p className="font-medium">{t("title", { count: degradations.length })}</p>
      <ul className="list-disc space-y-1 pl-5 [overflow-wrap:anywhere]">
        {degradations.map((d) => (
          <li key={`${d.step}-${d.round ?? ""}`}>{degradationText(words, d)}</li>
        ))}
      </ul>
    </section>
  );
}
