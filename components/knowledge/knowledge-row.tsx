"use client";

import { useTranslations } from "next-intl";
import { useId, useState } from "react";
import type { KnowledgeStatus } from "@/lib/research/ui";
import { SharedBadge } from "../account/shared-badge";
import { CategoryField, ContentField, validContent } from "./fields";
import { neutralButton, ReviewButtons, ShareButton, shortText } from "./review-controls";
import type { KnowledgeEntryView } from "./types";

type FormAction = (form: FormData) => void;
const link = "text-blue-700 underline-offset-2 hover:underline dark:text-blue-400";

/** Where the item came from: its runs (the owner's own only), added by hand, or shared by an admin. */
function ItemOrigin({ entry }: { entry: KnowledgeEntryView }) {
  const t = useTranslations("knowledge.origin");
  const { item, runs } = entry;
  if (!item.own) return <span>{t("sharedByAdmin")}</span>;
  if (runs.length === 0) return <span>{item.origin === "user" ? t("addedByYou") : t("noRun")}</span>;
  const [first, ...more] = runs;
  return (
    <span className="min-w-0 break-words">
      <a href={`/runs/${first.id}`} className={link}>
        {t("fromRun", { question: first.question })}
      </a>
      {more.length > 0 && (
        <span data-testid="also-found">
          {" "}
          {t("alsoFound", { count: more.length })}{" "}
          {more.map((r, i) => (
            <span key={r.id}>
              {i > 0 && ", "}
              <a href={`/runs/${r.id}`} className={link}>
                {r.question}
              </a>
            </span>
          ))}
        </span>
      )}
    </span>
  );
}

/** The sources the item rests on: the count links to the run's sources, each source to its page. */
function ItemSources({ entry }: { entry: KnowledgeEntryView }) {
  const t = useTranslations("common");
  const count = Math.max(entry.sources.length, entry.item.sourceIds.length);
  const label = t("sources", { count });
  const runId = entry.sources[0]?.runId ?? entry.runs[0]?.id;
  if (count === 0 || !runId) return <span>{label}</span>;
  return (
    <span className="min-w-0 break-words">
      <a href={`/runs/${runId}#sources`} className={link}>
        {label}
      </a>
      {entry.sources.length > 0 && ": "}
      {entry.sources.map((s, i) => (
        <span key={s.id}>
          {i > 0 && ", "}
          <a href={s.url} rel="noreferrer noopener" target="_blank" className={link}>
            {s.title || s.domain || s.url}
          </a>
        </span>
      ))}
    </span>
  );
}

function ItemFacts({ entry }: { entry: KnowledgeEntryView }) {
  const t = useTranslations("knowledge");
  const { item } = entry;
  return (
    <div className="flex flex-wrap items-center gap-2 text-xs text-muted">
      <span className="rounded bg-zinc-100 px-2 py-0.5 font-medium dark:bg-zinc-800">
        {t.has(`categories.${item.category}`) ? t(`categories.${item.category}`) : item.category}
      </span>
      <span data-testid="knowledge-status" className="rounded bg-zinc-100 px-2 py-0.5 dark:bg-zinc-800">
        {t.has(`status.${item.status}`) ? t(`status.${item.status}`) : item.status}
      </span>
      <span>{t("confidence", { value: item.confidence })}</span>
      <ItemSources entry={entry} />
      {item.shared && <SharedBadge />}
      <ItemOrigin entry={entry} />
    </div>
  );
}

function EditForm({
  entry,
  pending,
  formAction,
  onCancel,
}: {
  entry: KnowledgeEntryView;
  pending: boolean;
  formAction: FormAction;
  onCancel: () => void;
}) {
  const id = useId();
  const [content, setContent] = useState(entry.item.content);
  const [category, setCategory] = useState(entry.item.category);
  const t = useTranslations("knowledge");
  return (
    <form action={formAction} aria-label={t("edit.label")} className="space-y-2">
      {entry.ids.map((i) => (
        <input key={i} type="hidden" name="id" value={i} />
      ))}
      <input type="hidden" name="action" value="edit" />
      <CategoryField id={`${id}-category`} value={category} onChange={setCategory} />
      <ContentField id={`${id}-content`} label={t("content")} value={content} onChange={setContent} />
      <div className="flex gap-2">
        <button type="submit" disabled={pending || !validContent(content)} className={neutralButton}>
          {t("edit.save")}
        </button>
        <button type="button" disabled={pending} className={neutralButton} onClick={onCancel}>
          {t("edit.cancel")}
        </button>
      </div>
    </form>
  );
}

/** One card: facts, text, and (for the viewer's own items) review, edit and share. */
export function KnowledgeRow({
  entry,
  reviewedFrom,
  pending,
  editing,
  canShare,
  formAction,
  onEdit,
  onCancel,
}: {
  entry: KnowledgeEntryView;
  /** Reviewed on this page: kept in place with its undo, the status undo returns to. */
  reviewedFrom?: KnowledgeStatus;
  pending: boolean;
  editing: boolean;
  /** The viewer is an admin and this is their own item. */
  canShare: boolean;
  formAction: FormAction;
  onEdit: () => void;
  onCancel: () => void;
}) {
  const t = useTranslations("knowledge.edit");
  const { item } = entry;
  return (
    <li
      aria-label={item.content}
      data-knowledge-item=""
      tabIndex={-1}
      className="space-y-2 rounded-lg border border-zinc-200 bg-white p-3 text-sm outline-none focus:ring-2 focus:ring-blue-600 dark:border-zinc-800 dark:bg-zinc-900 dark:focus:ring-blue-400"
    >
      <ItemFacts entry={entry} />
      {editing ? (
        <EditForm entry={entry} pending={pending} formAction={formAction} onCancel={onCancel} />
      ) : (
        <>
          <p className="whitespace-pre-wrap break-words text-zinc-800 dark:text-zinc-200">{item.content}</p>
          {/* Someone else's shared item is read-only here: reviewing it is its owner's job. */}
          {item.own && (
            <div className="flex flex-wrap items-center gap-2">
              <ReviewButtons
                ids={entry.ids}
                content={item.content}
                status={item.status}
                reviewedFrom={reviewedFrom}
                pending={pending}
                formAction={formAction}
              />
              <button
                type="button"
                data-review="edit"
                disabled={pending}
                onClick={onEdit}
                aria-label={t("editItem", { name: shortText(item.content) })}
                className={neutralButton}
              >
                {t("edit")}
              </button>
              {canShare && (
                <ShareButton
                  ids={entry.ids}
                  content={item.content}
                  shared={item.shared}
                  pending={pending}
                  formAction={formAction}
                />
              )}
            </div>
          )}
        </>
      )}
    </li>
  );
}
