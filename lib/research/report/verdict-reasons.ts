/**
 * Why a citation has its support verdict, each reason in English (the API's) and as a code (the
 * page says it in its language): the lexical pre-check, the model's verdict, a check that could not
 * run, and what the report did with an unsupported citation.
 */
import { because, type Why } from "../because.ts";
import type { CitationSupport } from "../vocabulary.ts";

export const verdictReasons = {
  quoted: {
    reason: "lexical: the sentence is quoted verbatim from the source",
    because: because("verdict_quoted"),
  },
  unreadable: { reason: "the model's verdicts could not be read", because: because("verdict_unreadable") },
  missing: { reason: "the model gave no verdict for it", because: because("verdict_missing") },
  noText: { reason: "the source has no stored text", because: because("verdict_no_text") },
  noSentence: { reason: "no sentence to check", because: because("verdict_no_sentence") },
  notCheckedYet: { reason: "not checked yet", because: because("verdict_not_checked_yet") },
  noModel: {
    reason: "not checked: the report was assembled without a model",
    because: because("verdict_no_model"),
  },
} satisfies Record<string, Why>;

export function overlapReason(percent: number): Why {
  return {
    reason: `lexical: ${percent}% of the sentence's terms and all its numbers occur in the source`,
    because: because("verdict_overlap", { percent }),
  };
}

/** The model's verdict and its reason (the model's own words), or the verdict alone when it gave none. */
export function modelReason(verdict: Exclude<CitationSupport, "unchecked">, said: string): Why {
  return said
    ? { reason: `model: ${said}`, because: because("verdict_model", { said, handled: "kept" }) }
    : {
        reason: `model: ${verdict.replace("_", " ")}`,
        because: because("verdict_model_silent", { verdict, handled: "kept" }),
      };
}

/** A provider, budget or context-window failure: the batch stays unchecked with the provider's words. */
export function checkFailedReason(message: string): Why {
  const said = message.slice(0, 200);
  return { reason: `the check failed: ${said}`, because: because("verdict_check_failed", { said }) };
}

export function overBudgetReason(maxChecks: number): Why {
  return {
    reason: `beyond the check budget of ${maxChecks} model-judged citations per report`,
    because: because("verdict_over_budget", { max: maxChecks }),
  };
}

/** An unsupported citation's reason, with what the report did with it: removed (strict) or marked. */
export function handledReason<R extends { reason?: string | null; because?: Why["because"] | null }>(
  r: R,
  strict: boolean,
): R {
  const note = strict ? "; removed from the report (strictCitations)" : "; marked in the report";
  const values = { ...r.because?.values, handled: strict ? "removed" : "marked" };
  return { ...r, reason: `${r.reason ?? ""}${note}`, because: r.because ? { ...r.because, values } : null };
}
