/**
 * A step's fallback in the page's language, from its parts (step, round, model, cause and the
 * provider's own words, which stay as the provider said them). A record from before the cause was
 * kept is shown by its stored English sentence.
 */
import type { Degradation } from "@/lib/research/ui";
import type { Translate } from "./run-words";

type Loose = (key: string, values?: Record<string, string | number>) => string;

export function degradationText(
  t: Translate,
  d: Pick<Degradation, "step" | "round" | "model" | "error" | "cause" | "notice">,
): string {
  if (!d.cause) return d.notice;
  const say = t as unknown as Loose;
  const fallback = say(`run.degraded.steps.${d.step}`, { round: d.round ?? "?" });
  const who = d.model ?? say("run.degraded.theModel");
  const what = causeText(say, d.cause);
  return d.error
    ? say("run.degraded.lineSaid", { fallback, who, what, said: d.error })
    : say("run.degraded.line", { fallback, who, what });
}

function causeText(say: Loose, cause: NonNullable<Degradation["cause"]>): string {
  switch (cause.kind) {
    case "unusable":
      return say("run.degraded.causes.unusable", { attempts: cause.attempts });
    case "context":
      return say("run.degraded.causes.context");
    case "refused":
      return say("run.degraded.causes.refused", { status: cause.status });
    case "failed":
      return say("run.degraded.causes.failed", {
        status: cause.status ?? "none",
        attempts: cause.attempts,
      });
  }
}
