"use client";

import { useId, useState } from "react";
import type { KnowledgeCategory } from "@/lib/research/vocabulary";
import { SharedBadge } from "../account/shared-badge";
import { CategoryField, ContentField, validContent } from "./fields";
import type { KnowledgeItemView } from "./types";

const buttonClass =
  "rounded border border-zinc-300 px-2 py-0.5 text-sm hover:bg-zinc-100 disabled:opacity-40 dark:border-zinc-700 dark:hover:bg-zinc-800";

/** Where an item came from: its run (the owner's own only), added by hand, or shared by an admin. */
function ItemOrigin({ item, runQuestion }: { item: KnowledgeItemView; runQuestion?: string }) {
  if (!item.own) return <span>shared by an admin</span>;
  if (item.runId) {
    return (
      <a href={`/runs/${item.runId}`} className="text-blue-700 hover:underline dark:text-blue-400">
        from run: {runQuestion ?? item.runId.slice(0, 8)}
      </a>
    );
  }
  return <span>{item.origin === "user" ? "added by you" : "no run"}</span>;
}

/** Category, status, confidence, sources, sharing and where the item came from. */
function ItemFacts({ item, runQuestion }: { item: KnowledgeItemView; runQuestion?: string }) {
  const sources = item.sourceIds.length;
  return (
    <div className="flex flex-wrap items-center gap-2 text-xs text-muted">
      <span className="rounded bg-zinc-100 px-2 py-0.5 font-medium dark:bg-zinc-800">{item.category}</span>
      <span data-testid="knowledge-status" className="rounded bg-zinc-100 px-2 py-0.5 dark:bg-zinc-800">
        {item.status}
      </span>
      <span>confidence {Math.round(item.confidence * 100)}%</span>
      <span>
        {sources} {sources === 1 ? "source" : "sources"}
      </span>
      {item.shared && <SharedBadge />}
      <ItemOrigin item={item} runQuestion={runQuestion} />
    </div>
  );
}

export function KnowledgeRow({
  item,
  runQuestion,
  busy,
  editing,
  canShare,
  onEdit,
  onCancel,
  onSave,
  onApprove,
  onReject,
  onShare,
}: {
  item: KnowledgeItemView;
  runQuestion?: string;
  busy: boolean;
  editing: boolean;
  /** The viewer is an admin and this is their own item. */
  canShare: boolean;
  onEdit: () => void;
  onCancel: () => void;
  onSave: (patch: { content: string; category: KnowledgeCategory }) => void;
  onApprove: () => void;
  onReject: () => void;
  onShare: (shared: boolean) => void;
}) {
  const id = useId();
  const [content, setContent] = useState(item.content);
  const [category, setCategory] = useState(item.category);

  return (
    <li
      aria-label={item.content}
      className="space-y-2 rounded-lg border border-zinc-200 bg-white p-3 text-sm dark:border-zinc-800 dark:bg-zinc-900"
    >
      <ItemFacts item={item} runQuestion={runQuestion} />

      {editing ? (
        <form
          aria-label="Edit knowledge item"
          className="space-y-2"
          onSubmit={(e) => {
            e.preventDefault();
            onSave({ content: content.trim(), category });
          }}
        >
          <CategoryField id={`${id}-category`} value={category} onChange={setCategory} />
          <ContentField id={`${id}-content`} label="Content" value={content} onChange={setContent} />
          <div className="flex gap-2">
            <button type="submit" disabled={busy || !validContent(content)} className={buttonClass}>
              Save
            </button>
            <button
              type="button"
              disabled={busy}
              className={buttonClass}
              onClick={() => {
                setContent(item.content);
                setCategory(item.category);
                onCancel();
              }}
            >
              Cancel
            </button>
          </div>
        </form>
      ) : (
        <>
          <p className="whitespace-pre-wrap text-zinc-800 dark:text-zinc-200">{item.content}</p>
          {/* Someone else's shared item is read-only here: reviewing it is its owner's job. */}
          {item.own && (
            <div className="flex flex-wrap gap-2">
              {item.status !== "established" && (
                <button type="button" disabled={busy} onClick={onApprove} className={buttonClass}>
                  Approve
                </button>
              )}
              {item.status !== "deprecated" && (
                <button type="button" disabled={busy} onClick={onReject} className={buttonClass}>
                  Reject
                </button>
              )}
              <button
                type="button"
                disabled={busy}
                onClick={() => {
                  setContent(item.content);
                  setCategory(item.category);
                  onEdit();
                }}
                className={buttonClass}
              >
                Edit
              </button>
              {canShare && (
                <button
                  type="button"
                  disabled={busy}
                  onClick={() => onShare(!item.shared)}
                  className={buttonClass}
                >
                  {item.shared ? "Stop sharing" : "Share with everyone"}
                </button>
              )}
            </div>
          )}
        </>
      )}
    </li>
  );
}
