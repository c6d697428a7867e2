/** The account page's list of the person's scheduled refreshes, each linking to its report. */
import { getFormatter, getLocale, getTranslations } from "next-intl/server";
import type { ScheduleListItem } from "@/lib/server/schedules/schedule";
import type { ErrorTranslator } from "../error-text";
import { pausedText } from "./paused-text";

export async function SchedulesList({ schedules }: { schedules: ScheduleListItem[] }) {
  const t = await getTranslations("schedules");
  const format = await getFormatter();
  const locale = await getLocale();
  const errors = (await getTranslations("errors")) as unknown as ErrorTranslator;
  return (
    <section aria-labelledby="account-schedules" className="space-y-3" data-testid="account-schedules">
      <h2 id="account-schedules" className="text-lg font-medium">
        {t("accountTitle")}
      </h2>
      {schedules.length === 0 ? (
        <p className="text-sm text-muted">{t("accountNone")}</p>
      ) : (
        <ul className="space-y-2 text-sm">
          {schedules.map((s) => (
            <li key={s.reportId}>
              <a href={`/runs/${s.reportId}`} className="font-medium hover:underline">
                {s.question}
              </a>{" "}
              <span className="text-muted">
                {t("accountNext", {
                  every: s.every,
                  at: s.nextRunAt
                    ? format.dateTime(s.nextRunAt, { dateStyle: "medium", timeStyle: "short" })
                    : "—",
                })}
              </span>
              {s.pausedReason && (
                <p className="text-amber-800 dark:text-amber-300">
                  {t("paused", { reason: pausedText(s.pausedReason, s.pausedError, locale, errors) })}
                </p>
              )}
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
