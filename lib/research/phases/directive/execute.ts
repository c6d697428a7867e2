/**
 * One directive, start to finish, as the checkpointed unit the supervisor runs in parallel:
 * research, compress, store the result, mark the directive done. A directive whose result is
 * already stored (a resumed run) is returned as it is, without a model call. A failure is the
 * directive's, not the run's: it is marked failed and reported, never thrown — except
 * cancellation and an exhausted budget, which stop the whole run.
 */
import { abortError } from "../../../ai/errors.ts";
import type { EngineDeps } from "../../deps.ts";
import { rethrowIfFatal, throwIfAborted } from "../../errors.ts";
import { emitAll, type StoredEvent } from "../../events.ts";
import type { DirectiveRecord } from "../../store.ts";
import { compressFindings } from "./compression.ts";
import { directiveStartsFor } from "./directive-starts.ts";
import { type ResearcherContext, runResearcher } from "./researcher.ts";

/** What one directive left behind: its findings (compressed, or raw notes) and the sources it used. */
export interface DirectiveOutcome {
  directiveId: string;
  findings: string;
  sourceIds: string[];
  ok: boolean;
}

export async function executeDirective(
  deps: EngineDeps,
  directive: DirectiveRecord,
  ctx: ResearcherContext,
): Promise<DirectiveOutcome> {
  const { store, events, signal } = deps;
  const directiveId = directive.id;
  const sourceIdsNow = async () => (await store.listDirectiveSources(directiveId)).map((s) => s.id);

  // Only a directive that was started can have a stored result (it is marked running first).
  const stored = directive.status === "pending" ? undefined : await store.getResearcherResult(directiveId);
  if (stored?.compressedFindings) {
    const sourceIds = await sourceIdsNow();
    // Stopped between saving the result and marking the directive: finish that step only.
    if (directive.status !== "done") {
      await store.setDirectiveStatus(directiveId, "done");
      await events.emit({
        type: "directive.completed",
        directiveId,
        sources: sourceIds.length,
        findings: stored.compressedFindings,
      });
    }
    return { directiveId, findings: stored.compressedFindings, sourceIds, ok: true };
  }

  // compression.completed goes out with the directive's end (completed or failed), in one block.
  const later: StoredEvent[] = [];
  try {
    throwIfAborted(signal);
    // Written with the other directives this round starts at the same moment (directive-starts.ts).
    await directiveStartsFor(ctx, deps).start(directiveId);

    const outcome = await runResearcher(deps, directive, ctx);
    if (outcome.stopReason === "aborted" || signal.aborted) throw abortError(signal);

    const sources = await store.listDirectiveSources(directiveId);
    const compressed = await compressFindings(deps, directive, outcome.messages, sources, later);
    await store.saveResearcherResult({
      directiveId,
      messages: outcome.messages,
      // The raw notes stand in as findings when compression failed, so a resume does not redo the work.
      compressedFindings: compressed.findings,
      rawNotes: compressed.fallback ? compressed.findings : null,
      toolCalls: outcome.toolCalls,
      stopReason: outcome.stopReason,
    });
    await store.setDirectiveStatus(directiveId, "done");
    await emitAll(events, [
      ...later,
      { type: "directive.completed", directiveId, sources: sources.length, findings: compressed.findings },
    ]);
    return { directiveId, findings: compressed.findings, sourceIds: sources.map((s) => s.id), ok: true };
  } catch (e) {
    rethrowIfFatal(e, signal);
    const error = e instanceof Error ? e.message : String(e);
    await store.setDirectiveStatus(directiveId, "failed", error);
    await emitAll(events, [...later, { type: "directive.failed", directiveId, error }]);
    return { directiveId, findings: "", sourceIds: await sourceIdsNow(), ok: false };
  }
}
