"use client";

import { useId, useState } from "react";

export type KnowledgeCategory = "finding" | "lesson" | "domain";
export type KnowledgeStatus = "provisional" | "established" | "deprecated";

/** A knowledge item as GET /api/knowledge returns it (dates as ISO strings). */
export interface KnowledgeItemView {
  id: string;
  runId: string | null;
  category: KnowledgeCategory;
  content: string;
  sourceIds: string[];
  confidence: number;
  needsReview: boolean;
  status: KnowledgeStatus;
  origin: "extracted" | "user";
  createdAt: string;
  reviewedAt: string | null;
}

export const MAX_CONTENT_CHARS = 500;
const MIN_CONTENT_CHARS = 3;
const CATEGORIES: KnowledgeCategory[] = ["finding", "lesson", "domain"];

const GROUPS: { status: KnowledgeStatus; title: string; empty: string }[] = [
  {
    status: "provisional",
    title: "Needs review",
    empty:
      "Nothing needs review. Items extracted from new reports appear here until you approve or reject them.",
  },
  {
    status: "established",
    title: "Established",
    empty: "No established items yet. Approved items and items you add are given to new research runs.",
  },
  {
    status: "deprecated",
    title: "Deprecated",
    empty: "No deprecated items. Rejected items are kept here and are not used by research runs.",
  },
];

type Filter = "all" | KnowledgeStatus;

/** Sends a JSON request; throws the API's error message ({"error":{"message"}}) on failure. */
async function api<T>(url: string, init?: { method: string; body: unknown }): Promise<T> {
  const r = await fetch(url, {
    method: init?.method ?? "GET",
    headers: init ? { "content-type": "application/json" } : undefined,
    body: init ? JSON.stringify(init.body) : undefined,
    cache: "no-store",
  });
  const body = await r.json().catch(() => null);
  if (!r.ok) throw new Error(body?.error?.message ?? `HTTP ${r.status}`);
  return body as T;
}

const message = (err: unknown) => (err instanceof Error ? err.message : String(err));

export function KnowledgeReview({
  initial,
  runQuestions,
}: {
  initial: KnowledgeItemView[];
  /** Questions of the runs the items came from, by run id (items from newer runs fall back to the id). */
  runQuestions: Record<string, string>;
}) {
  const [items, setItems] = useState(initial);
  const [filter, setFilter] = useState<Filter>("all");
  const [error, setError] = useState<string | null>(null);
  const [busyId, setBusyId] = useState<string | null>(null);
  const [editingId, setEditingId] = useState<string | null>(null);

  async function refresh() {
    const { items } = await api<{ items: KnowledgeItemView[] }>("/api/knowledge");
    setItems(items);
  }

  /** Runs one action, then reloads the list from the API; returns whether the action succeeded. */
  async function act(id: string | null, action: () => Promise<unknown>): Promise<boolean> {
    setBusyId(id);
    setError(null);
    try {
      await action();
      await refresh();
      return true;
    } catch (err) {
      setError(message(err));
      return false;
    } finally {
      setBusyId(null);
    }
  }

  const review = (id: string, body: Record<string, unknown>) =>
    act(id, () => api(`/api/knowledge/${id}`, { method: "PATCH", body }));

  const counts = Object.fromEntries(
    GROUPS.map((g) => [g.status, items.filter((i) => i.status === g.status).length]),
  ) as Record<KnowledgeStatus, number>;
  const shown = GROUPS.filter((g) => filter === "all" || g.status === filter);

  return (
    <div className="space-y-8">
      <AddKnowledgeForm onAdd={(body) => act(null, () => api("/api/knowledge", { method: "POST", body }))} />

      {error && (
        <p role="alert" className="text-sm text-red-700 dark:text-red-400">
          {error}
        </p>
      )}

      <fieldset className="flex flex-wrap gap-2 text-sm">
        <legend className="sr-only">Filter by status</legend>
        {(["all", ...GROUPS.map((g) => g.status)] as Filter[]).map((f) => {
          const label =
            f === "all"
              ? `All (${items.length})`
              : `${GROUPS.find((g) => g.status === f)?.title} (${counts[f]})`;
          return (
            <button
              key={f}
              type="button"
              aria-pressed={filter === f}
              onClick={() => setFilter(f)}
              className="rounded-full border border-zinc-300 px-3 py-1 aria-pressed:bg-zinc-900 aria-pressed:text-white dark:border-zinc-700 dark:aria-pressed:bg-zinc-100 dark:aria-pressed:text-zinc-900"
            >
              {label}
            </button>
          );
        })}
      </fieldset>

      {items.length === 0 ? (
        <p className="rounded-lg border border-dashed border-zinc-300 p-6 text-sm text-zinc-600 dark:border-zinc-700 dark:text-zinc-400">
          The knowledge base is empty. When a research run completes, what it learned is extracted here for
          you to review; you can also add items yourself with the form above.
        </p>
      ) : (
        shown.map((group) => {
          const groupItems = items.filter((i) => i.status === group.status);
          const headingId = `knowledge-${group.status}`;
          return (
            <section key={group.status} aria-labelledby={headingId} className="space-y-2">
              <h2 id={headingId} className="text-lg font-medium">
                {group.title} <span className="text-sm font-normal text-zinc-500">({groupItems.length})</span>
              </h2>
              {groupItems.length === 0 ? (
                <p className="text-sm text-zinc-500">{group.empty}</p>
              ) : (
                <ul className="space-y-2">
                  {groupItems.map((item) => (
                    <KnowledgeRow
                      key={item.id}
                      item={item}
                      runQuestion={item.runId ? runQuestions[item.runId] : undefined}
                      busy={busyId === item.id}
                      editing={editingId === item.id}
                      onEdit={() => {
                        setError(null);
                        setEditingId(item.id);
                      }}
                      onCancel={() => setEditingId(null)}
                      onSave={async (patch) => {
                        if (await review(item.id, { action: "edit", ...patch })) setEditingId(null);
                      }}
                      onApprove={() => review(item.id, { action: "approve" })}
                      onReject={() => review(item.id, { action: "reject" })}
                    />
                  ))}
                </ul>
              )}
            </section>
          );
        })
      )}
    </div>
  );
}

function ContentField({
  id,
  label,
  value,
  onChange,
}: {
  id: string;
  label: string;
  value: string;
  onChange: (v: string) => void;
}) {
  const counterId = `${id}-counter`;
  return (
    <div className="space-y-1">
      <label htmlFor={id} className="block text-sm font-medium">
        {label}
      </label>
      <textarea
        id={id}
        required
        rows={3}
        maxLength={MAX_CONTENT_CHARS}
        aria-describedby={counterId}
        value={value}
        onChange={(e) => onChange(e.target.value)}
        className="w-full rounded-lg border border-zinc-300 bg-white p-2 text-sm dark:border-zinc-700 dark:bg-zinc-900"
      />
      <p id={counterId} className="text-right text-xs text-zinc-500">
        {value.length}/{MAX_CONTENT_CHARS} characters
      </p>
    </div>
  );
}

function CategoryField({
  id,
  value,
  onChange,
}: {
  id: string;
  value: KnowledgeCategory;
  onChange: (v: KnowledgeCategory) => void;
}) {
  return (
    <div className="flex items-center gap-2 text-sm">
      <label htmlFor={id} className="font-medium">
        Category
      </label>
      <select
        id={id}
        value={value}
        onChange={(e) => onChange(e.target.value as KnowledgeCategory)}
        className="rounded border border-zinc-300 bg-white px-2 py-1 dark:border-zinc-700 dark:bg-zinc-900"
      >
        {CATEGORIES.map((c) => (
          <option key={c} value={c}>
            {c}
          </option>
        ))}
      </select>
    </div>
  );
}

const validContent = (s: string) =>
  s.trim().length >= MIN_CONTENT_CHARS && s.trim().length <= MAX_CONTENT_CHARS;

function AddKnowledgeForm({
  onAdd,
}: {
  onAdd: (body: { category: KnowledgeCategory; content: string }) => Promise<boolean>;
}) {
  const id = useId();
  const [category, setCategory] = useState<KnowledgeCategory>("finding");
  const [content, setContent] = useState("");
  const [busy, setBusy] = useState(false);

  async function submit(e: React.FormEvent) {
    e.preventDefault();
    setBusy(true);
    if (await onAdd({ category, content: content.trim() })) setContent("");
    setBusy(false);
  }

  return (
    <form
      onSubmit={submit}
      aria-label="Add knowledge item"
      className="space-y-3 rounded-lg border border-zinc-200 bg-white p-4 dark:border-zinc-800 dark:bg-zinc-900"
    >
      <h2 className="font-medium">Add an item</h2>
      <CategoryField id={`${id}-category`} value={category} onChange={setCategory} />
      <ContentField id={`${id}-content`} label="Content" value={content} onChange={setContent} />
      <p className="text-xs text-zinc-500">
        Items you add are established at once and given to new research runs whose question they fit.
      </p>
      <button
        type="submit"
        disabled={busy || !validContent(content)}
        className="rounded-lg bg-zinc-900 px-4 py-2 text-sm font-medium text-white disabled:opacity-40 dark:bg-zinc-100 dark:text-zinc-900"
      >
        {busy ? "Adding…" : "Add item"}
      </button>
    </form>
  );
}

const buttonClass =
  "rounded border border-zinc-300 px-2 py-0.5 text-sm hover:bg-zinc-100 disabled:opacity-40 dark:border-zinc-700 dark:hover:bg-zinc-800";

function KnowledgeRow({
  item,
  runQuestion,
  busy,
  editing,
  onEdit,
  onCancel,
  onSave,
  onApprove,
  onReject,
}: {
  item: KnowledgeItemView;
  runQuestion?: string;
  busy: boolean;
  editing: boolean;
  onEdit: () => void;
  onCancel: () => void;
  onSave: (patch: { content: string; category: KnowledgeCategory }) => void;
  onApprove: () => void;
  onReject: () => void;
}) {
  const id = useId();
  const [content, setContent] = useState(item.content);
  const [category, setCategory] = useState(item.category);
  const sources = item.sourceIds.length;

  return (
    <li
      aria-label={item.content}
      className="space-y-2 rounded-lg border border-zinc-200 bg-white p-3 text-sm dark:border-zinc-800 dark:bg-zinc-900"
    >
      <div className="flex flex-wrap items-center gap-2 text-xs text-zinc-600 dark:text-zinc-400">
        <span className="rounded bg-zinc-100 px-2 py-0.5 font-medium dark:bg-zinc-800">{item.category}</span>
        <span data-testid="knowledge-status" className="rounded bg-zinc-100 px-2 py-0.5 dark:bg-zinc-800">
          {item.status}
        </span>
        <span>confidence {Math.round(item.confidence * 100)}%</span>
        <span>
          {sources} {sources === 1 ? "source" : "sources"}
        </span>
        {item.runId ? (
          <a href={`/runs/${item.runId}`} className="text-blue-700 hover:underline dark:text-blue-400">
            from run: {runQuestion ?? item.runId.slice(0, 8)}
          </a>
        ) : (
          <span>{item.origin === "user" ? "added by you" : "no run"}</span>
        )}
      </div>

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
          </div>
        </>
      )}
    </li>
  );
}
