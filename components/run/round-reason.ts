/**
 * Why a supervision round went on or stopped, in the page's language: its code's words (becauseText)
 * and, after a stop the round's plan had decided, the directives still researched before it took
 * effect (the `queued` value). A round from before codes shows the engine's English, plainly.
 */
import type { Because } from "@/lib/research/ui";
import { plainReason } from "./activity-labels";
import { becauseText } from "./because-text";
import type { Translate } from "./run-words";

export function roundReasonText(t: Translate, why: Because | null | undefined, written: string): string {
  const plain = plainReason(written);
  const text = becauseText(t, why, plain);
  const queued = Number(why?.values?.queued ?? 0);
  // The English already ends with its own suffix when the code had no words.
  if (!why || !queued || !t.has(`because.${why.code}` as never)) return text;
  return text + t("because.round_queued_researched", { count: queued });
}
