"use client";

import { useState } from "react";
import type { KnowledgeStatus } from "@/lib/research/vocabulary";
import { AddKnowledgeForm } from "./knowledge/add-form";
import { api } from "./knowledge/api";
import { KnowledgeRow } from "./knowledge/knowledge-row";
import { StatusFilter } from "./knowledge/status-filter";
import { type Filter, GROUPS, type KnowledgeItemView } from "./knowledge/types";
import { errorMessage } from "./read-response";

export type { KnowledgeItemView } from "./knowledge/types";

export function KnowledgeReview({
  initial,
  runQuestions,
  isAdmin,
}: {
  initial: KnowledgeItemView[];
  /** Admins may share their own items with every account. */
  isAdmin: boolean;
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
      setError(errorMessage(err));
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

      <StatusFilter filter={filter} total={items.length} counts={counts} onChange={setFilter} />

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
                {group.title} <span className="text-sm font-normal text-muted">({groupItems.length})</span>
              </h2>
              {groupItems.length === 0 ? (
                <p className="text-sm text-muted">{group.empty}</p>
              ) : (
                <ul className="space-y-2">
                  {groupItems.map((item) => (
                    <KnowledgeRow
                      key={item.id}
                      item={item}
                      runQuestion={item.runId ? runQuestions[item.runId] : undefined}
                      busy={busyId === item.id}
                      editing={editingId === item.id}
                      canShare={isAdmin && item.own}
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
                      onShare={(shared) => review(item.id, { action: shared ? "share" : "unshare" })}
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
