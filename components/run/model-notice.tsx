import { useTranslations } from "next-intl";
import type { ActivityEntry } from "./activity-model";
import { describeSwitch, modelNotices } from "./model-notices";

/**
 * A notice when the run did not use the models it was meant to: calls that went on to the next model
 * of a chain (with the provider's words), and models left out at creation. Nothing otherwise.
 */
export function ModelNotice({ activity }: { activity: readonly ActivityEntry[] }) {
  const words = useTranslations();
  const t = useTranslations("run.models");
  const { switches, leftOut } = modelNotices(activity);
  if (!switches.length && !leftOut.length) return null;
  return (
    <section
      aria-label={t("label")}
      data-testid="model-notice"
      className="space-y-1 rounded-lg border border-amber-300 bg-amber-50 p-3 text-sm dark:border-amber-800 dark:bg-amber-950"
    >
      <h2 className="font-medium">{t("title")}</h2>
      {switches.map((s) => (
        <p key={`${s.from} ${s.to} ${s.reason}`} data-testid="model-switch">
          {describeSwitch(s, words)} <span className="text-muted">({s.detail})</span>
        </p>
      ))}
      {leftOut.map((w) => (
        <p key={w} data-testid="model-left-out">
          {t("leftOut", { warning: w })}
        </p>
      ))}
    </section>
  );
}
