"use client";

import { useTranslations } from "next-intl";
import { type ReactNode, useActionState, useCallback, useEffect, useState } from "react";
import type { KnowledgeStatus } from "@/lib/research/ui";
import { idleState } from "@/lib/server/actions/action-state";
import { reviewKnowledgeAction } from "@/lib/server/actions/knowledge";
import { useActionErrorText } from "./action-error";
import { AddKnowledgeForm } from "./knowledge/add-form";
import { KnowledgeRow } from "./knowledge/knowledge-row";
import { ReviewMessage } from "./knowledge/review-controls";
import { StatusFilter } from "./knowledge/status-filter";
import { type Filter, GROUPS, type KnowledgeEntryView, type KnowledgeItemView } from "./knowledge/types";
import { useReviewKeys } from "./knowledge/use-review-keys";

export type { KnowledgeEntryView, KnowledgeItemView } from "./knowledge/types";

type ReviewData = { action: string; ids: string[]; previous?: KnowledgeStatus; items: KnowledgeItemView[] };
const keyOf = (e: KnowledgeEntryView) => e.ids[0];
const [QUEUE, ...REVIEWED_GROUPS] = GROUPS;
const kbd = (chunks: ReactNode) => <kbd>{chunks}</kbd>;
/** An item's text as the review's message quotes it, cut as the action's own sentence cuts it. */
const quoted = (s: string) => (s.length > 80 ? `${s.slice(0, 79)}…` : s);

/** The answer's items replace the cards' items they belong to (a merged card shows its first). */
function merge(entries: KnowledgeEntryView[], items: KnowledgeItemView[]): KnowledgeEntryView[] {
  const byId = new Map(items.map((i) => [i.id, i]));
  return entries.map((e) => {
    const item = byId.get(keyOf(e));
    return item ? { ...e, item: { ...item, sourceIds: e.item.sourceIds } } : e;
  });
}

export function KnowledgeReview({
  initial,
  isAdmin,
}: {
  initial: KnowledgeEntryView[];
  /** Admins may share their own items with every account. */
  isAdmin: boolean;
}) {
  const [entries, setEntries] = useState(initial);
  // The queue is what needed review when the page opened: a reviewed card stays in its place
  // (marked, with its undo) until the next visit, so the cards below never move under the pointer.
  const [queueKeys] = useState(
    () => new Set(initial.filter((e) => e.item.status === "provisional").map(keyOf)),
  );
  const [reviewed, setReviewed] = useState<Record<string, KnowledgeStatus>>({});
  const [filter, setFilter] = useState<Filter>("all");
  const [editing, setEditing] = useState<string | null>(null);
  const [state, formAction, pending] = useActionState(reviewKnowledgeAction, idleState);
  useReviewKeys();
  const t = useTranslations("knowledge");
  const errorText = useActionErrorText();

  useEffect(() => {
    if (state.status !== "ok" || !state.data) return;
    const data = state.data as ReviewData;
    const key = data.ids[0];
    setEntries((prev) => merge(prev, data.items));
    if ((data.action === "approve" || data.action === "reject") && data.previous) {
      const previous = data.previous;
      setReviewed((r) => ({ ...r, [key]: previous }));
    }
    if (data.action === "restore") setReviewed(({ [key]: _, ...rest }) => rest);
    if (data.action === "edit") setEditing(null);
  }, [state]);

  const onAdded = useCallback((item: KnowledgeItemView) => {
    setEntries((prev) => [{ item, ids: [item.id], runs: [], sources: [] }, ...prev]);
  }, []);

  const queue = entries.filter((e) => queueKeys.has(keyOf(e)) || e.item.status === "provisional");
  const rest = entries.filter((e) => !queue.includes(e));
  const waiting = queue.filter((e) => e.item.status === "provisional").length;
  const counts = Object.fromEntries(
    REVIEWED_GROUPS.map((g) => [g.status, rest.filter((e) => e.item.status === g.status).length]),
  ) as Record<KnowledgeStatus, number>;
  const data = state.status === "ok" ? (state.data as ReviewData | undefined) : undefined;
  const undo =
    data && (data.action === "approve" || data.action === "reject") && data.previous
      ? { ids: data.ids, previous: data.previous }
      : undefined;
  const doneText = (message: string) => {
    const action = data?.action;
    const content = data?.items[0]?.content;
    if (!content) return message;
    switch (action) {
      case "approve":
      case "reject":
      case "restore":
      case "edit":
      case "share":
      case "unshare":
        return t(`done.${action}`, { content: quoted(content) });
      default:
        return message;
    }
  };

  const row = (entry: KnowledgeEntryView, inQueue: boolean) => (
    <KnowledgeRow
      key={keyOf(entry)}
      entry={entry}
      reviewedFrom={
        inQueue && entry.item.status !== "provisional" ? (reviewed[keyOf(entry)] ?? "provisional") : undefined
      }
      pending={pending}
      editing={editing === keyOf(entry)}
      canShare={isAdmin && entry.item.own}
      formAction={formAction}
      onEdit={() => setEditing(keyOf(entry))}
      onCancel={() => setEditing(null)}
    />
  );

  return (
    // Room at the bottom for the fixed message, so it never covers the last card.
    <div className="space-y-8 pb-20">
      <section aria-labelledby="knowledge-provisional" className="space-y-2">
        <h2 id="knowledge-provisional" className="text-lg font-medium">
          {t(`status.${QUEUE.status}`)} <span className="text-sm font-normal text-muted">({waiting})</span>
        </h2>
        <p id="knowledge-keys" hidden={queue.length === 0} className="text-xs text-muted">
          {t.rich("keys", { kbd })}
        </p>
        {queue.length === 0 ? (
          <p className="text-sm text-muted">{t(`empty.${QUEUE.status}`)}</p>
        ) : (
          <ul aria-describedby="knowledge-keys" className="space-y-2">
            {queue.map((e) => row(e, true))}
          </ul>
        )}
      </section>

      <AddKnowledgeForm onAdded={onAdded} />

      <StatusFilter
        groups={REVIEWED_GROUPS}
        filter={filter}
        total={rest.length}
        counts={counts}
        onChange={setFilter}
      />
      {REVIEWED_GROUPS.filter((g) => filter === "all" || g.status === filter).map((group) => {
        const groupEntries = rest.filter((e) => e.item.status === group.status);
        const headingId = `knowledge-${group.status}`;
        return (
          <section key={group.status} aria-labelledby={headingId} className="space-y-2">
            <h2 id={headingId} className="text-lg font-medium">
              {t(`status.${group.status}`)}{" "}
              <span className="text-sm font-normal text-muted">({groupEntries.length})</span>
            </h2>
            {groupEntries.length === 0 ? (
              <p className="text-sm text-muted">{t(`empty.${group.status}`)}</p>
            ) : (
              <ul className="space-y-2">{groupEntries.map((e) => row(e, false))}</ul>
            )}
          </section>
        );
      })}

      {state.status === "error" && (
        <p
          role="alert"
          className="fixed inset-x-4 bottom-4 z-20 mx-auto max-w-xl rounded-lg border border-red-300 bg-white px-4 py-2 text-sm text-red-700 shadow-lg dark:border-red-800 dark:bg-zinc-900 dark:text-red-400"
        >
          {errorText(state)}
        </p>
      )}
      {state.status === "ok" && (
        <ReviewMessage
          message={doneText(state.message)}
          undo={undo}
          pending={pending}
          formAction={formAction}
        />
      )}
    </div>
  );
}
